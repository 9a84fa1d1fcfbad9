package rawio

import (
	"os"
	"sync"
	"syscall"
)

// Writer writes to a file (stdout, the terminal) with raw system calls
// that cannot block, where the file allows them:
//   - a pipe (`baton -p … | less`), a socket (an SDK's stdio) and the
//     regular files whose file system can say so are written with a
//     pwritev2 the kernel is told must not wait (RWF_NOWAIT), at the
//     file's own offset, so O_APPEND and an offset shared with the shell
//     hold as for any write;
//   - a terminal is written through an open file description of its
//     own, non-blocking: the description the shell shares keeps its
//     flags (O_NONBLOCK on it would reach the shell, and every program
//     run in the terminal after baton). The network poller does not watch
//     it, so the terminal's reader draining it wakes nobody.
//
// When the kernel would have to wait (a reader that stopped reading, a
// frozen terminal, a slow disk) a write writes what fits and the rest
// goes the usual way, a blocking write of f the runtime knows of: it
// blocks that write alone, as before, never the runtime's signals and
// timers. No byte is lost or written twice, and an error means what it
// meant (EPIPE on stdout still ends the process as SIGPIPE does). A file
// that cannot be written so (a file system without support, a kernel
// before RWF_NOWAIT) is written the usual way from the first write that
// finds it out.
//
// A Writer is safe for use by several goroutines; their writes do not
// interleave.
type Writer struct {
	f  *os.File
	mu sync.Mutex
	// chosen says the way below was chosen, at the first write.
	chosen bool
	way    way
	// raw reaches f's descriptor without Fd, which would make a
	// non-blocking file blocking: a flag of a description the shell may
	// share.
	raw syscall.RawConn
	// own is the terminal's own description, opened here (-1: none).
	own int

	// p, n and how are one raw step's bytes and result for writeFn
	// (writeRaw, bound once), so a write allocates nothing.
	p       []byte
	n       int
	how     attempt
	writeFn func(fd uintptr)
}

// way is how a Writer writes without waiting.
type way int

const (
	usual       way = iota // it does not: every write goes the usual way
	noWait                 // pwritev2 with RWF_NOWAIT
	nonBlocking            // write(2) on a non-blocking description
)

// NewWriter returns a Writer of f. It opens nothing until the first
// write; Close releases what it opened.
func NewWriter(f *os.File) *Writer {
	return &Writer{f: f, own: -1}
}

// Write writes p whole or returns why it could not, as f's Write does.
func (w *Writer) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.chosen {
		w.choose()
	}
	done := 0
	for w.way != usual && done < len(p) {
		w.p, w.n, w.how = p[done:], 0, failed
		if w.own >= 0 {
			w.writeRaw(uintptr(w.own))
		} else {
			_ = w.raw.Control(w.writeFn)
		}
		w.p = nil
		done += w.n
		if w.how == unsupported {
			w.way = usual
		}
		if w.how != wrote {
			break
		}
	}
	if done == len(p) {
		return done, nil
	}
	n, err := w.f.Write(p[done:])
	return done + n, err
}

// choose picks how to write, at the first write: a terminal through a
// description of its own, anything else with RWF_NOWAIT.
func (w *Writer) choose() {
	w.chosen, w.way = true, noWait
	raw, err := w.f.SyscallConn()
	if err != nil {
		w.way = usual
		return
	}
	w.raw, w.writeFn = raw, w.writeRaw
	if own := ownTerminal(raw); own >= 0 {
		w.own, w.way = own, nonBlocking
	}
}

// writeRaw is one raw step of w.p into fd.
func (w *Writer) writeRaw(fd uintptr) { w.n, w.how = writeNow(fd, w.way, w.p) }

// Close closes what the Writer opened (f stays open); later writes go
// to f the usual way.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.chosen, w.way = true, usual
	if w.own < 0 {
		return nil
	}
	own := w.own
	w.own = -1
	return closeFD(own)
}

// attempt is how a write that must not wait went.
type attempt int

const (
	wrote       attempt = iota // it wrote something
	wouldWait                  // nothing fits without waiting
	failed                     // an error the usual write will report
	unsupported                // the file cannot be written without waiting
)
