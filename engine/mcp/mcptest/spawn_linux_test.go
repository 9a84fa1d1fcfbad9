package mcptest

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

func TestSpawnReportsARealChildProcess(t *testing.T) {
	cs := connect(t, NewServer())
	pid, err := strconv.Atoi(text(call(t, cs, "spawn", nil)))
	if err != nil {
		t.Fatalf("spawn did not report a pid: %v", err)
	}
	comm, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	// The sleep is this test's to end: it is a child of this process.
	_ = syscall.Kill(pid, syscall.SIGKILL)
	var status syscall.WaitStatus
	_, _ = syscall.Wait4(pid, &status, 0, nil)
	if err != nil || strings.TrimSpace(string(comm)) != "sleep" {
		t.Fatalf("process %d is %q (%v), want the sleep spawn started", pid, comm, err)
	}
}
