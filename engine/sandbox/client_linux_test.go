package sandbox

import (
	"fmt"
	"net"
	"unsafe"

	"golang.org/x/sys/unix"
)

// probeClient does one thing a command might, printing "ok: …" or
// "refused: …": connect to a Unix socket (pathname or "@abstract") and
// print what it says, send a UDP datagram, make a socket pair, or set up
// an io_uring.
func probeClient(what string, args []string) int {
	switch what {
	case "unix":
		c, err := net.Dial("unix", args[0])
		if err != nil {
			fmt.Println("refused:", err)
			return 1
		}
		defer c.Close()
		buf := make([]byte, 64)
		n, _ := c.Read(buf)
		fmt.Printf("ok: %s\n", buf[:n])
	case "udp":
		c, err := net.Dial("udp", args[0])
		if err == nil {
			_, err = c.Write([]byte("from the sandbox"))
			c.Close()
		}
		if err != nil {
			fmt.Println("refused:", err)
			return 1
		}
		fmt.Println("ok: sent")
	case "tcp":
		c, err := net.Dial("tcp", args[0])
		if err != nil {
			fmt.Println("refused:", err)
			return 1
		}
		c.Close()
		fmt.Println("ok: connected")
	case "socketpair":
		typ := unix.SOCK_STREAM
		if args[0] == "dgram" {
			typ = unix.SOCK_DGRAM
		}
		fds, err := unix.Socketpair(unix.AF_UNIX, typ|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			fmt.Println("refused:", err)
			return 1
		}
		unix.Close(fds[0])
		unix.Close(fds[1])
		fmt.Println("ok: pair")
	case "io_uring":
		params := make([]byte, 120)
		fd, _, errno := unix.Syscall(unix.SYS_IO_URING_SETUP, 1, uintptr(unsafe.Pointer(&params[0])), 0)
		if errno != 0 {
			fmt.Println("refused:", errno)
			return 1
		}
		unix.Close(int(fd))
		fmt.Println("ok: ring")
	default:
		fmt.Println("unknown probe", what)
		return 2
	}
	return 0
}
