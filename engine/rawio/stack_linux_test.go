package rawio

import (
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
	"testing"
)

// readStackEnv makes this test binary, started again by the test, read
// on a goroutine whose stack may not grow.
const readStackEnv = "RAWIO_TEST_READ_STACK"

// A Read makes its room before it goes down to the socket: on a
// goroutine whose stack may not outgrow its first 2 KiB, a read that
// would fit there overflows in growReadStack, at the top of Read.
func TestReadGrowsTheStackAtItsTop(t *testing.T) {
	if os.Getenv(readStackEnv) != "" {
		client, _, server := loopback(t)
		if _, err := server.Write([]byte("x")); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 8)
		done := make(chan struct{})
		old := debug.SetMaxStack(readFrame)
		go func() {
			defer close(done)
			_, _ = client.Read(buf)
		}()
		<-done
		debug.SetMaxStack(old)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestReadGrowsTheStackAtItsTop$")
	cmd.Env = append(os.Environ(), readStackEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "stack overflow") || !strings.Contains(string(out), "rawio.growReadStack") {
		t.Fatalf("a read fitted a stack that may not grow, or overflowed elsewhere: %v\n%s", err, out)
	}
}
