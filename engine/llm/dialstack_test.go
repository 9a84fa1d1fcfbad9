package llm

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine/stackcap"
)

// The default transport's dial makes its room before anything else: on
// a goroutine whose stack may not outgrow its first 2 KiB, it overflows
// in growDialStack, not somewhere down in net.
func TestDialGrowsTheStackFirst(t *testing.T) {
	dial := defaultTransport(time.Second).DialContext
	trace, err := stackcap.Overflow(t, 2<<10, func() {
		if c, err := dial(context.Background(), "tcp", "127.0.0.1:1"); err == nil {
			c.Close()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(trace, "llm.growDialStack") {
		t.Fatalf("the dial did not grow its stack first:\n%s", trace)
	}
}
