// Package stackcap lets a test check that a goroutine makes its stack's
// room at its top: it runs a function on a goroutine whose stack may not
// grow past a cap, in a process of its own (the cap is the whole
// process's), and returns the trace of the goroutine that overflowed.
package stackcap

import (
	"fmt"
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
	"testing"
)

// env names the test a process was started to run capped.
const env = "BATON_STACKCAP_TEST"

// attempts bounds the runs made when a goroutine of the runtime's own
// (one running finalizers, say) overflowed the cap before the function's.
const attempts = 3

// Overflow runs f capped at limit bytes in a new process of the test
// binary, and returns the trace of f's goroutine when it overflowed ("" when
// f returned). In the process it starts, it runs f and exits. A crash that
// is no overflow is an error, as is an overflow of the runtime's own
// goroutines before f's in every run.
func Overflow(t testing.TB, limit int, f func()) (string, error) {
	t.Helper()
	if os.Getenv(env) == t.Name() {
		// No collection, so no finalizer or cleanup runs on a goroutine
		// of its own beside f's while the cap holds.
		debug.SetGCPercent(-1)
		done := make(chan struct{})
		old := debug.SetMaxStack(limit)
		go func() {
			f()
			close(done) // not deferred: a panic in f must end the process, not let it exit 0
		}()
		<-done
		debug.SetMaxStack(old)
		os.Exit(0)
	}
	for range attempts {
		cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$")
		cmd.Env = append(os.Environ(), env+"="+t.Name())
		out, err := cmd.CombinedOutput()
		if err == nil {
			return "", nil
		}
		trace, ours := overflowed(string(out))
		if ours {
			return trace, nil
		}
		if trace == "" {
			return "", fmt.Errorf("the capped process failed without a stack overflow: %v\n%s", err, out)
		}
	}
	return "", fmt.Errorf("%d capped runs overflowed in the runtime's own goroutines first", attempts)
}

// overflowed finds, in a crashed process's output, the trace of the
// goroutine that overflowed (the first one running) and whether it is the
// one Overflow started.
func overflowed(out string) (trace string, ours bool) {
	_, after, found := strings.Cut(out, "fatal error: stack overflow")
	if !found {
		return "", false
	}
	for block := range strings.SplitSeq(after, "\n\n") {
		block = strings.TrimSpace(block)
		if strings.HasPrefix(block, "goroutine ") && strings.Contains(block, "[running]") {
			return block, strings.Contains(block, "created by github.com/seed-e4e525a6/baton/engine/stackcap.Overflow ")
		}
	}
	return "", false
}
