package sandbox

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// The command an editor's terminal runs drops the variables baton names
// (the editor's environment may hold baton's key), runs the script in
// the sandbox and exits with the script's status.
func TestTerminalCommandDropsTheKeyAndKeepsTheStatus(t *testing.T) {
	b := newBox(t)
	t.Setenv("BATON_TEST_KEY", "sk-terminal-secret")
	exe, args, err := TerminalCommand(b.policy, `echo "key=[$BATON_TEST_KEY] home=[$HOME]"; echo made > made.txt; exit 3`, []string{"BATON_TEST_KEY", "OTHER"})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Dir = b.ws
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 3 {
		t.Fatalf("the terminal ended %v, want status 3: %s", err, out)
	}
	if strings.Contains(string(out), "sk-terminal-secret") || !strings.Contains(string(out), "key=[]") {
		t.Fatalf("the terminal's command saw the key: %s", out)
	}
	if got, err := os.ReadFile(b.ws + "/made.txt"); err != nil || string(got) != "made\n" {
		t.Fatalf("the script did not run in the workspace: %q, %v", got, err)
	}
}
