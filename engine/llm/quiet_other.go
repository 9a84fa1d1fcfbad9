//go:build !linux

package llm

import "net"

// quietWhile leaves the socket as it is: only Linux is known to keep a
// socket's low-water mark in poll, so elsewhere a gathering stream is
// woken by each chunk as before.
func quietWhile(net.Conn, int) (restore func()) { return func() {} }
