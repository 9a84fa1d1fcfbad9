package llm

import (
	"context"
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// dialStackEnv makes this test binary, started again by the test, dial
// on a goroutine whose stack may not grow.
const dialStackEnv = "LLM_TEST_DIAL_STACK"

// The default transport's dial makes its room before anything else: on
// a goroutine whose stack may not outgrow its first 2 KiB, it overflows
// in growDialStack, not somewhere down in net.
func TestDialGrowsTheStackFirst(t *testing.T) {
	if os.Getenv(dialStackEnv) != "" {
		dial := defaultTransport(time.Second).DialContext
		done := make(chan struct{})
		old := debug.SetMaxStack(2 << 10)
		go func() {
			defer close(done)
			if c, err := dial(context.Background(), "tcp", "127.0.0.1:1"); err == nil {
				c.Close()
			}
		}()
		<-done
		debug.SetMaxStack(old)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestDialGrowsTheStackFirst$")
	cmd.Env = append(os.Environ(), dialStackEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "stack overflow") || !strings.Contains(string(out), "llm.growDialStack") {
		t.Fatalf("the dial did not grow its stack first: %v\n%s", err, out)
	}
}
