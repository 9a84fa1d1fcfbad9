// Package wake sleeps until a moment on the wall clock, the way baton's
// shared clock needs: the TUI's frames and beats and the reads of the
// streams it gathers fall on the same boundaries, and a wait for one
// costs the process one wake-up, not the several a Go timer costs it.
//
// On Linux a wait is a timerfd the network poller watches, set to the
// boundary itself (absolute, on the real-time clock), so every wait for
// one boundary expires in the same instant. A Go timer costs a streaming
// process more than its own wake-up: the runtime's monitor thread
// (sysmon) sleeps only until the next Go timer is due, so it wakes at
// every boundary too; the goroutine a timer readies inherits the time
// slice of the one that ran before it, so the monitor, seeing one slice
// running since the stream began, preempts it with a signal; and each
// such preemption sets the monitor polling every 20 µs for a while. A
// timerfd's expiry readies its sleeper through the poller, which starts a
// fresh time slice, and leaves the monitor asleep. Elsewhere, or where
// the kernel gives no timerfd, a wait is a Go timer.
package wake

import (
	"context"
	"time"
)

// Until waits until t, or until ctx ends, whichever comes first. A t in
// the past returns at once.
func Until(ctx context.Context, t time.Time) {
	if ctx.Err() != nil || !time.Now().Before(t) {
		return
	}
	if w := take(); w != nil {
		if w.wait(ctx, t) {
			give(w)
		}
		return
	}
	timer := time.NewTimer(time.Until(t))
	defer timer.Stop()
	select {
	case <-timer.C:
	case <-ctx.Done():
	}
}

// Boundary is the next multiple of every after now, on the wall clock:
// the moment every waiter on a clock of that period shares.
func Boundary(now time.Time, every time.Duration) time.Time {
	return now.Truncate(every).Add(every)
}
