//go:build !linux

package rawio

import "net"

// Conn returns c: elsewhere its reads are made the usual way.
func Conn(c net.Conn) net.Conn { return c }

// Quiet leaves the socket as it is: only Linux is known to keep a
// socket's low-water mark in poll.
func Quiet(net.Conn, int) bool { return false }
