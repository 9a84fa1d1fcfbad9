//go:build !linux

package main

// hideKey leaves the environment as it is: only Linux shows a process's
// initial environment in /proc, and only there does baton re-execute.
func hideKey(environ []string) []string { return environ }
