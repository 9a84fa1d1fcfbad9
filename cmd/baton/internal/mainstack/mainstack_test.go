package mainstack

import (
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
	"testing"
)

// growEnv makes this test binary, started again by the test, cap
// goroutine stacks and call growStack.
const growEnv = "MAINSTACK_TEST_GROW"

// growStack really takes its frame: with goroutine stacks capped below
// it, a goroutine calling it overflows, where without the frame (the
// compiler dropping the unused room) it would not.
func TestGrowStackTakesItsFrame(t *testing.T) {
	if os.Getenv(growEnv) != "" {
		debug.SetMaxStack(initFrame / 2)
		done := make(chan struct{})
		go func() {
			defer close(done)
			growStack(0)
		}()
		<-done
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestGrowStackTakesItsFrame$")
	cmd.Env = append(os.Environ(), growEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "stack overflow") {
		t.Fatalf("growStack fitted a stack capped at half its frame: %v\n%s", err, out)
	}
	// Uncapped, the frame is simply there to use.
	done := make(chan struct{})
	go func() {
		defer close(done)
		growStack(1)
	}()
	<-done
}
