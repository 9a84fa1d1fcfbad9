//go:build !linux

package rawio

import "syscall"

// writeNow finds every file written the usual way: only Linux is known
// here to write without waiting.
func writeNow(uintptr, way, []byte) (int, attempt) { return 0, unsupported }

// ownTerminal opens nothing elsewhere.
func ownTerminal(syscall.RawConn) int { return -1 }

// closeFD is never called: nothing is opened.
func closeFD(int) error { return nil }
