//go:build !linux

package residency

// DropCode does nothing off Linux, where the shape of the program's
// mappings is not read.
func DropCode() {}
