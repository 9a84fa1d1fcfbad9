package rules

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRuleListsReadBack: a list of rules is written back as it was read,
// described in a person's words on a card, and a bad rule or kind in a
// list is named in the error.
func TestRuleListsReadBack(t *testing.T) {
	texts := []string{"write_file", "run_command(go test:*)", "run_command(git status)", "web_fetch(domain:*.x.com)", "read_file(docs/**)", "mcp__gh__*"}
	list, err := ParseAll(texts)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(Strings(list), " "); got != strings.Join(texts, " ") {
		t.Errorf("Strings = %q", got)
	}
	if got, want := Describe(list), `write_file, "go test …", "git status", *.x.com, docs/**, mcp__gh__*`; got != want {
		t.Errorf("Describe = %q, want %q", got, want)
	}
	if _, err := ParseAll([]string{"write_file", "run_command(", "x"}); err == nil || !strings.Contains(err.Error(), `"run_command("`) {
		t.Errorf("ParseAll with a bad rule: %v", err)
	}
	for _, k := range Kinds {
		if got, err := ParseKind(string(k)); err != nil || got != k {
			t.Errorf("ParseKind(%s) = %q, %v", k, got, err)
		}
	}
	if _, err := ParseKind("permit"); err == nil || !strings.Contains(err.Error(), "allow, ask or deny") {
		t.Errorf("ParseKind(permit): %v", err)
	}
}

// TestExactRuleMeetsWhatAVariableMayHide: deny run_command(git push
// origin) stops `git push origin $EXTRA`, since $EXTRA may be empty, but
// not `git push origin main`, which is another command.
func TestExactRuleMeetsWhatAVariableMayHide(t *testing.T) {
	var s Set
	s.Add(Deny, mustParse(t, "run_command(git push origin)"))
	for cmd, want := range map[string]Verdict{
		"git push origin":         Denied,
		`git push origin $EXTRA`:  Denied,
		`git push origin "$@" $X`: Denied,
		"git push origin main":    None,
		`git push origin main $X`: None,
		"git push":                None,
	} {
		if v, _ := s.Decide(cmdCall(cmd)); v != want {
			t.Errorf("%s: %v, want %v", cmd, v, want)
		}
	}
}

// TestAllowedPrefixVouchesForNoWrite: an allowed command prefix covers
// its input, duplicated descriptors and output thrown away, never a
// write into a file, however the redirection is spelled.
func TestAllowedPrefixVouchesForNoWrite(t *testing.T) {
	allow := []Rule{mustParse(t, "run_command(go test:*)")}
	for cmd, want := range map[string]bool{
		"go test 2>&1":           true,
		"go test >&-":            true,
		"go test <<< x":          true,
		"go test &>/dev/null":    true,
		"go test >&out.txt":      false,
		"go test 2>&$FD":         false,
		"go test {fd}>/dev/null": false,
		"go test <> f":           false,
		"go test > out.txt":      false,
		`go test >> "$LOG"`:      false,
	} {
		if got := Covered(allow, cmdCall(cmd)); got != want {
			t.Errorf("go test:* covers %q = %v, want %v", cmd, got, want)
		}
	}
}

// TestCallsOfOtherTools: a tool without command, path or host is read by
// name alone and its "always" is the tool; a file tool's call outside
// the workspace has no workspace path, so no workspace glob matches it
// and "always" offers nothing.
func TestCallsOfOtherTools(t *testing.T) {
	c := CallOf("task", json.RawMessage(`{"prompt":"x"}`), "/w")
	if c.Tool != "task" || c.Unclear() != "" || c.Path != "" {
		t.Errorf("CallOf(task) = %+v", c)
	}
	if got := Strings(Suggest(c)); len(got) != 1 || got[0] != "task" {
		t.Errorf("Suggest(task) = %q", got)
	}
	if SuggestFolder(c) != nil {
		t.Error("a folder was suggested for task")
	}
	root := CallOf("list_files", json.RawMessage(`{}`), "/w")
	if root.Path != "." || Suggest(root) != nil {
		t.Errorf("list_files of the workspace: path %q, suggestions %q", root.Path, Strings(Suggest(root)))
	}
	outside := CallOf("read_file", json.RawMessage(`{"path":"../etc/passwd"}`), "/w")
	if outside.Path != "" || mustParse(t, "read_file(**)").Matches(outside) {
		t.Errorf("a path outside the workspace matched the workspace's **: %+v", outside)
	}
	if Suggest(outside) != nil {
		t.Errorf("always for a path outside the workspace offered %q", Strings(Suggest(outside)))
	}
}
