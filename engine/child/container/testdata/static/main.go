// Command static is a statically linked program for TestStaticBinary.
package main

func main() {}
