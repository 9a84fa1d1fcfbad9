package llm

import (
	"context"
	"sync"
	"time"
)

// afterFinishGrace bounds the wait for the end of a stream whose reply is
// already complete (it sent a finish_reason): usage may still follow, but
// a server that never sends [DONE] nor closes must not hold the turn for
// the whole idle timeout.
const afterFinishGrace = 10 * time.Second

// watchdog cancels one request when the endpoint is silent too long. It
// starts with the first-byte limit; Stream reports each piece of real
// progress, which moves the deadline to the idle limit from now. Progress
// only writes a deadline; the timer checks it when it fires, so a fast
// stream costs no timer operations per chunk.
type watchdog struct {
	limits Timeouts
	cancel context.CancelCauseFunc

	mu       sync.Mutex
	timer    *time.Timer
	due      time.Time // when the timer fires
	deadline time.Time
	cause    *TimeoutError // what firing now would report
	stopped  bool
}

// startWatchdog arms the first-byte limit; cancel ends the request with
// the timeout as its cause.
func startWatchdog(limits Timeouts, cancel context.CancelCauseFunc) *watchdog {
	w := &watchdog{
		limits: limits,
		cancel: cancel,
		cause:  &TimeoutError{Setting: SettingFirstByte, Limit: limits.FirstByte},
	}
	w.mu.Lock()
	w.deadline = time.Now().Add(limits.FirstByte)
	w.due = w.deadline
	w.timer = time.AfterFunc(limits.FirstByte, w.fire)
	w.mu.Unlock()
	return w
}

// fire cancels the request if the deadline has passed, or waits again for
// what is left of it.
func (w *watchdog) fire() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	if left := time.Until(w.deadline); left > 0 {
		w.rearm(left)
		return
	}
	if time.Since(w.due) > lateFire {
		// The timer fired long after it was due: the process did not
		// run meanwhile (ctrl+z, SIGSTOP, a machine asleep), and what
		// the endpoint sent is waiting unread. The silence it would
		// report was baton's own.
		w.deadline = time.Now().Add(afterPauseGrace)
		w.rearm(afterPauseGrace)
		return
	}
	w.stopped = true
	w.cancel(w.cause)
}

// lateFire is how much later than due a timer fires when the process did
// not run in between, rather than merely being busy; afterPauseGrace is
// what the endpoint then gets for its reply to be read before its
// silence counts.
const (
	lateFire        = 250 * time.Millisecond
	afterPauseGrace = 5 * time.Second
)

// rearm makes the timer fire after d; the caller holds mu.
func (w *watchdog) rearm(d time.Duration) {
	w.due = time.Now().Add(d)
	w.timer.Reset(d)
}

// extend gives the endpoint d from now, reported as the idle timeout if
// it runs out. The timer is only touched when the new deadline comes
// before it fires (the first progress, when the first-byte limit is the
// longer, or a finish): later deadlines are found by fire.
func (w *watchdog) extend(d time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.deadline = time.Now().Add(d)
	if w.cause.Setting != SettingIdle {
		w.cause = &TimeoutError{Setting: SettingIdle, Limit: w.limits.Idle}
	}
	if !w.stopped && w.deadline.Before(w.due) {
		w.rearm(d)
	}
}

// progress says the reply grew: the endpoint now has the idle limit to
// send more.
func (w *watchdog) progress() { w.extend(w.limits.Idle) }

// finished says the reply is complete; what may still come (usage,
// [DONE]) gets a short grace, which is reported as the idle timeout Stream
// expects after a finish.
func (w *watchdog) finished() { w.extend(min(w.limits.Idle, afterFinishGrace)) }

// bound gives what is left of the request (an error body) the idle limit;
// nothing reports progress on an error body, so it is one fixed deadline.
func (w *watchdog) bound() { w.extend(w.limits.Idle) }

// stop disarms the watchdog; the request ended on its own.
func (w *watchdog) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stopped = true
	w.timer.Stop()
}
