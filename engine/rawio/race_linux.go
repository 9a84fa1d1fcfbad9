//go:build race

package rawio

import (
	"runtime"
	"sync"
	"syscall"
	"unsafe"
)

// The race detector learns that I/O orders goroutines from package
// syscall's Read and Write: a write releases, and a read acquires, one
// token of syscall's. A raw call tells it nothing, so a test whose
// goroutines talk through a socket or a pipe (a server in the test
// process) would see races that are not there. Under -race, then, each
// raw read and write also tells it what syscall's would, with a read and
// a write of nothing on /dev/null.

var devNull = sync.OnceValue(func() int {
	fd, err := syscall.Open("/dev/null", syscall.O_RDWR|syscall.O_CLOEXEC, 0)
	if err != nil {
		return -1
	}
	return fd
})

// readSeen tells the race detector of a read of p.
func readSeen(p []byte) {
	runtime.RaceWriteRange(unsafe.Pointer(&p[0]), len(p))
	_, _ = syscall.Read(devNull(), nil)
}

// writeSeen tells the race detector of a write of p, before it is made.
func writeSeen(p []byte) {
	_, _ = syscall.Write(devNull(), nil)
	runtime.RaceReadRange(unsafe.Pointer(&p[0]), len(p))
}
