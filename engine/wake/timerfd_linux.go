package wake

import (
	"context"
	"os"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// waiter is one timerfd, reused wait after wait.
type waiter struct {
	fd  int
	f   *os.File        // the timerfd as the poller sees it
	raw syscall.RawConn // its reads, waited for by the poller

	// One wait's state for step and expire, bound once, so a wait
	// allocates only its hook on the context.
	spec        unix.ItimerSpec
	armed       bool
	errno       syscall.Errno
	expirations [8]byte
	step        func(fd uintptr) bool
	expire      func()
}

// pool keeps the waiters not in use: a process waits on a few at once
// (the frames, the beat, one per stream), and opening one per wait would
// cost three system calls more.
var pool struct {
	sync.Mutex
	free []*waiter
	// broken says the kernel gave no timerfd: waits use Go timers.
	broken bool
}

// take returns a free waiter, a new one, or nil when there can be none.
func take() *waiter {
	pool.Lock()
	defer pool.Unlock()
	if n := len(pool.free); n > 0 {
		w := pool.free[n-1]
		pool.free = pool.free[:n-1]
		return w
	}
	if pool.broken {
		return nil
	}
	fd, err := unix.TimerfdCreate(unix.CLOCK_REALTIME, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		pool.broken = true
		return nil
	}
	f := os.NewFile(uintptr(fd), "wake timer")
	raw, err := f.SyscallConn()
	if err != nil {
		_ = f.Close()
		pool.broken = true
		return nil
	}
	w := &waiter{fd: fd, f: f, raw: raw}
	w.step = w.arriveOrArm
	// The read of an ended context's wait is given a deadline in the past.
	w.expire = func() { _ = w.f.SetReadDeadline(time.Unix(1, 0)) }
	return w
}

// give returns a waiter to the pool.
func give(w *waiter) {
	pool.Lock()
	defer pool.Unlock()
	pool.free = append(pool.free, w)
}

// wait waits until t or ctx's end. It reports whether the waiter can be
// used again; one whose wait ctx ended is closed instead, so no deadline
// set by the ending can reach a later wait.
func (w *waiter) wait(ctx context.Context, t time.Time) (reusable bool) {
	// Absolute, so that every wait for one boundary expires together;
	// a change of the clock ends the wait (ECANCELED) instead of moving it.
	w.spec = unix.ItimerSpec{Value: unix.NsecToTimespec(t.UnixNano())}
	w.armed, w.errno = false, 0
	unhook := context.AfterFunc(ctx, w.expire)
	err := w.raw.Read(w.step)
	errno := w.errno
	if err == nil && errno != 0 && errno != unix.ECANCELED {
		err = errno
	}
	if !unhook() || err != nil {
		_ = w.f.Close()
		return false
	}
	return true
}

// arriveOrArm is one step of a wait's read of the timerfd fd: the first
// arms the timer, the next read its expiry. The timer is set here, once
// the poller has forgotten the descriptor's last readiness: its expiry,
// even one before the poller waits, is news the poller hears; a read
// before the wait would find nothing, the moment being ahead. Both calls
// are raw: neither blocks, and a system call made the usual way wakes the
// runtime's sleeping monitor thread, the very wake-up a timerfd is here
// to spare.
func (w *waiter) arriveOrArm(fd uintptr) bool {
	if !w.armed {
		w.armed = true
		_, _, w.errno = unix.RawSyscall6(unix.SYS_TIMERFD_SETTIME, fd, unix.TFD_TIMER_ABSTIME|unix.TFD_TIMER_CANCEL_ON_SET,
			uintptr(unsafe.Pointer(&w.spec)), 0, 0, 0)
		return w.errno != 0
	}
	_, _, w.errno = unix.RawSyscall(unix.SYS_READ, fd, uintptr(unsafe.Pointer(&w.expirations[0])), uintptr(len(w.expirations)))
	return w.errno != unix.EAGAIN && w.errno != unix.EINTR
}
