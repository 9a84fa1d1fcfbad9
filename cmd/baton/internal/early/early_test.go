package early

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// reportEnv makes this test binary, started again by a test, print what
// its initialisation left: the processors it runs on, the ones init
// remembered and whether it dropped them.
const reportEnv = "ONEPROC_TEST_REPORT"

func TestMain(m *testing.M) {
	if os.Getenv(reportEnv) != "" {
		most, dropped := Processors()
		fmt.Println(runtime.GOMAXPROCS(0), most, dropped)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// initialised starts this test binary with GOMAXPROCS set to gomaxprocs
// and the given arguments, and returns what its initialisation left.
func initialised(t *testing.T, gomaxprocs string, args ...string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "GOMAXPROCS="+gomaxprocs, reportEnv+"=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return strings.TrimSpace(string(out))
}

// A run starts on one processor and remembers the runtime's; a
// GOMAXPROCS the person chose, and baton's own processes (a sandbox
// stage, a child), are left as the runtime starts them.
func TestInitDropsARunToOneProcessor(t *testing.T) {
	child := initialised(t, "", "__child", "spec")
	runtimes, rest, _ := strings.Cut(child, " ")
	if rest != "0 false" {
		t.Errorf("a child: %q, want the runtime's processors, untouched", child)
	}
	if got, want := initialised(t, "", "-p", "hello"), "1 "+runtimes+" true"; got != want {
		t.Errorf("a run: %q, want %q", got, want)
	}
	if got, want := initialised(t, "3", "-p", "hello"), "3 0 false"; got != want {
		t.Errorf("a chosen GOMAXPROCS: %q, want %q", got, want)
	}
}

// Undo gives a dropped process the runtime's processors back, once.
func TestUndoGivesTheProcessorsBack(t *testing.T) {
	most, dropped := Processors()
	if !dropped {
		t.Skip("the test runner chose GOMAXPROCS")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	Undo()
	if got := runtime.GOMAXPROCS(0); got != most {
		t.Errorf("after Undo: %d processors, want the runtime's %d", got, most)
	}
	if _, dropped := Processors(); dropped {
		t.Error("still dropped after Undo")
	}
	runtime.GOMAXPROCS(1)
	Undo()
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Errorf("a second Undo changed the processors to %d", got)
	}
}
