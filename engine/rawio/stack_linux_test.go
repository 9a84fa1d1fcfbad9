package rawio

import (
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/stackcap"
)

// A Read makes its room before it goes down to the socket: on a
// goroutine whose stack may not outgrow its first 2 KiB, a read that
// would fit there overflows in growReadStack, at the top of Read.
func TestReadGrowsTheStackAtItsTop(t *testing.T) {
	client, _, server := loopback(t)
	if _, err := server.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 8)
	trace, err := stackcap.Overflow(t, readFrame, func() { _, _ = client.Read(buf) })
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(trace, "rawio.growReadStack") {
		t.Fatalf("a read fitted a stack that may not grow, or overflowed elsewhere:\n%s", trace)
	}
}
