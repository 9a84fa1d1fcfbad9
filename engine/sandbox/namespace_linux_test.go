package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// ancestors walks from the shell up through /proc, printing each parent,
// then lists every process the command can see.
const ancestors = `p=$$; while [ "$p" -gt 0 ]; do echo "up $p"; p=$(sed 's/.*) [A-Za-z] \([0-9]*\).*/\1/' /proc/$p/stat); done
for d in /proc/[0-9]*; do echo "sees ${d#/proc/}"; done`

func isolatedBox(t *testing.T) *box {
	t.Helper()
	b := newBox(t)
	if !Isolated() {
		t.Skipf("the kernel refuses the namespaces (%s); commands see every process here", IsolationProblem())
	}
	return b
}

// TestOnlyItsOwnProcesses: walking up from the shell stops at the
// supervisor, PID 1 of the command's namespace, and /proc lists only the
// command's own tree; without the sandbox the same walk reaches this
// test, which shows the walk would find an ancestor if it could.
func TestOnlyItsOwnProcesses(t *testing.T) {
	b := isolatedBox(t)
	out, code := b.run(t, b.policy, ancestors+"; cat /proc/1/cmdline | tr '\\0' ' '")
	if code != 0 {
		t.Fatalf("exit %d: %q", code, out)
	}
	ups, sees := lines(out, "up "), lines(out, "sees ")
	if len(ups) != 2 || ups[1] != "1" || !strings.HasSuffix(out, "baton-sandbox "+superviseArg+" ") {
		t.Errorf("the walk from the shell did not stop at the supervisor as PID 1: %q", out)
	}
	if len(sees) > 4 || !slices.Contains(sees, "1") || !slices.Contains(sees, ups[0]) || slices.Contains(sees, strconv.Itoa(os.Getpid())) {
		t.Errorf("the command sees processes beyond its own tree: %v", sees)
	}
	off := b.policy
	off.Mode = Off
	out, _ = b.run(t, off, ancestors)
	if !slices.Contains(lines(out, "up "), strconv.Itoa(os.Getpid())) {
		t.Fatalf("unsandboxed, the walk should reach this test (pid %d): %q", os.Getpid(), out)
	}
}

// TestToolsInsideTheNamespace: what commands commonly do about processes
// still works isolated: ps (showing only the command's tree), bash job
// control, /proc/self, git, and the exit status of a background job.
func TestToolsInsideTheNamespace(t *testing.T) {
	b := isolatedBox(t)
	script := `set -m; sleep 0.01 & jobs %1 >/dev/null && echo jobs-ok; wait %1 && echo waited
readlink /proc/self >/dev/null && grep -q "^Pid:" /proc/self/status && echo self-ok
echo "ps $(ps -e -o pid= | wc -l)"
git init -q . && git status --short >/dev/null && echo git-ok
(exit 3) & wait $!; echo "bg $?"`
	out, code := b.run(t, b.policy, script)
	for _, want := range []string{"jobs-ok", "waited", "self-ok", "git-ok", "bg 3"} {
		if code != 0 || !slices.Contains(strings.Split(out, "\n"), want) {
			t.Fatalf("missing %q: exit %d, %q", want, code, out)
		}
	}
	ps := lines(out, "ps ")
	if n, _ := strconv.Atoi(strings.Join(ps, "")); len(ps) != 1 || n < 3 || n > 6 {
		t.Errorf("ps lists %d processes; want the supervisor, the shell, ps and little else: %q", n, out)
	}
	if _, err := os.Stat(filepath.Join(b.ws, ".git")); err != nil {
		t.Errorf("git init inside the namespace wrote nothing: %v", err)
	}
}

// lines returns what follows prefix on each line that starts with it.
func lines(out, prefix string) []string {
	var got []string
	for _, l := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(l, prefix); ok {
			got = append(got, v)
		}
	}
	return got
}
