package stackcap

import (
	"strings"
	"testing"
)

// deep recurses n frames of about 1 KiB each.
func deep(n int) int {
	var room [1 << 10]byte
	room[n%len(room)] = byte(n)
	if n == 0 {
		return int(room[0])
	}
	return deep(n-1) + int(room[n%len(room)])
}

// A function that outgrows the cap overflows on the capped goroutine,
// and its trace comes back.
func TestOverflowReturnsTheCappedGoroutinesTrace(t *testing.T) {
	trace, err := Overflow(t, 8<<10, func() { _ = deep(64) })
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(trace, "stackcap.deep") {
		t.Fatalf("no trace of the capped goroutine:\n%s", trace)
	}
}

// A goroutine of the runtime's own that overflowed first is told from
// the capped one, so the run is made again rather than judged.
func TestOverflowedTellsTheRuntimesGoroutines(t *testing.T) {
	runtimeFirst := "fatal error: stack overflow\n\nruntime stack:\nruntime.throw()\n\n" +
		"goroutine 19 gp=0x1 m=0 [running]:\nruntime.runFinalizers()\ncreated by runtime.createfing in goroutine 1\n\n" +
		"goroutine 22 [running]:\ncreated by github.com/seed-e4e525a6/baton/engine/stackcap.Overflow in goroutine 21\n"
	if trace, ours := overflowed(runtimeFirst); ours || !strings.Contains(trace, "runFinalizers") {
		t.Fatalf("the finalizers' overflow was taken for the capped goroutine's: %v\n%s", ours, trace)
	}
	oursFirst := "fatal error: stack overflow\n\ngoroutine 22 [running]:\npkg.f()\n" +
		"created by github.com/seed-e4e525a6/baton/engine/stackcap.Overflow in goroutine 21\n"
	if _, ours := overflowed(oursFirst); !ours {
		t.Fatal("the capped goroutine's overflow was not recognised")
	}
	if trace, _ := overflowed("panic: something else"); trace != "" {
		t.Fatalf("a crash that is no overflow gave a trace: %q", trace)
	}
}

// A function that fits the cap returns no trace.
func TestOverflowOfAFunctionThatFits(t *testing.T) {
	if trace, err := Overflow(t, 64<<10, func() { _ = deep(2) }); trace != "" || err != nil {
		t.Fatalf("a function within the cap overflowed: %v\n%s", err, trace)
	}
}

// A crash that is no overflow is an error, not a trace.
func TestOverflowOfACrashThatIsNoOverflow(t *testing.T) {
	if trace, err := Overflow(t, 64<<10, func() { panic("not an overflow") }); err == nil || trace != "" {
		t.Fatalf("a panic was taken for an overflow: %v\n%s", err, trace)
	}
}
