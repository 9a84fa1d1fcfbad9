package main

import (
	"runtime"
	"testing"
)

// baton runs on one processor until enough children run at once to give
// it more, never more than the runtime would have used; a GOMAXPROCS the
// person set is left alone.
func TestProcsFollowTheChildren(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(before)
	if newProcs("3") != nil {
		t.Fatal("a GOMAXPROCS the person chose was overridden")
	}
	if runtime.GOMAXPROCS(0) != before {
		t.Fatal("a chosen GOMAXPROCS changed the processors")
	}
	p := newProcs("")
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Fatalf("start: %d processors, want 1", got)
	}
	p.running(childrenPerProc - 1)
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Fatalf("%d children: %d processors, want 1", childrenPerProc-1, got)
	}
	p.running(1000 * childrenPerProc)
	if got := runtime.GOMAXPROCS(0); got != before {
		t.Fatalf("many children: %d processors, want the runtime's %d", got, before)
	}
	p.running(0)
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Fatalf("after: %d processors, want 1", got)
	}
}
