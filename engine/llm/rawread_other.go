//go:build !linux

package llm

import "net"

// rawReads leaves conn as it is: the raw reads that spare the runtime's
// monitor a wake-up are written for Linux.
func rawReads(conn net.Conn) net.Conn { return conn }
