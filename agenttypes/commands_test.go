package agenttypes

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// put writes files under root, making folders as needed.
func put(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLoadCommandsFromEveryFolder(t *testing.T) {
	home, project, xdg := t.TempDir(), t.TempDir(), t.TempDir()
	put(t, home, map[string]string{
		".claude/commands/review.md":             "---\ndescription: user review\n---\nReview $ARGUMENTS",
		".claude/commands/mine.md":               "Personal command body",
		".config/opencode/command/oc-user.md":    "---\ndescription: opencode user\n---\nhi",
		".config/opencode/commands/oc-user-2.md": "hello",
	})
	put(t, xdg, map[string]string{"commands/from-xdg.md": "# Title line\nbody"})
	put(t, project, map[string]string{
		".claude/commands/review.md":               "---\ndescription: project review\nargument-hint: [file]\nallowed-tools: Bash(rm:*)\n---\nReview $1 then $2",
		".claude/commands/frontend/component.md":   "---\ndescription: make a component\n---\nMake $ARGUMENTS",
		".claude/commands/frontend/deep/nested.md": "nested",
		".opencode/command/test.md":                "---\ndescription: Run tests: all of them\nagent: test\nmodel: anthropic/claude-3-5-sonnet\n---\nRun the tests.",
		".opencode/commands/plan.md":               "---\nagent: plan\nsubtask: false\n---\nPlan it.",
		".baton/commands/ship.md":                  "---\ndescription: ship\nsubtask: true\nargument-hint: [pr-number] [priority]\n---\nShip it.",
		".baton/commands/empty.md":                 "---\ndescription: nothing\n---\n",
		".baton/commands/bad name.md":              "x",
		".baton/commands/notes.txt":                "not a command",
	})
	cmds, warns := LoadCommands(LoadOptions{ProjectDir: project, HomeDir: home, UserConfigDir: xdg})
	got := map[string]Command{}
	var names []string
	for _, c := range cmds {
		got[c.Name] = c
		names = append(names, c.Name)
	}
	want := "from-xdg frontend:component frontend:deep:nested mine oc-user oc-user-2 plan review ship test"
	if strings.Join(names, " ") != want {
		t.Fatalf("names %q, want %q", strings.Join(names, " "), want)
	}
	if r := got["review"]; r.Description != "project review" || r.ArgumentHint != "[file]" || !strings.HasPrefix(r.Source, project) {
		t.Errorf("review %+v: the project's should win", r)
	}
	if c := got["test"]; c.Description != "Run tests: all of them" || c.Agent != "test" || !c.Subtask || c.Model != "anthropic/claude-3-5-sonnet" {
		t.Errorf("test %+v", c)
	}
	if c := got["plan"]; c.Subtask || c.Agent != "plan" {
		t.Errorf("plan %+v: subtask: false keeps it in the main agent", c)
	}
	if c := got["ship"]; !c.Subtask || c.Agent != "" || c.ArgumentHint != "[pr-number] [priority]" {
		t.Errorf("ship %+v", c)
	}
	if got["from-xdg"].Description != "Title line" || got["mine"].Description != "Personal command body" {
		t.Errorf("descriptions from the first line: %q %q", got["from-xdg"].Description, got["mine"].Description)
	}
	joined := ""
	for _, w := range warns {
		joined += w.String() + "\n"
	}
	for _, want := range []string{"review.md: command /review here takes precedence", "empty.md: skipped: the command has no prompt", `bad name.md: skipped: "bad name" cannot be typed`} {
		if !strings.Contains(joined, want) {
			t.Errorf("warnings lack %q:\n%s", want, joined)
		}
	}
}

func TestLoadCommandsSkipsDevicesAndLinksOut(t *testing.T) {
	project, outside := t.TempDir(), t.TempDir()
	put(t, outside, map[string]string{"secret.md": "the secret"})
	put(t, project, map[string]string{".claude/commands/ok.md": "fine"})
	dir := filepath.Join(project, ".claude", "commands")
	for name, target := range map[string]string{"zero.md": "/dev/zero", "out.md": filepath.Join(outside, "secret.md")} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	cmds, warns := LoadCommands(LoadOptions{ProjectDir: project})
	if len(cmds) != 1 || cmds[0].Name != "ok" {
		t.Fatalf("commands %+v, want only ok", cmds)
	}
	joined := ""
	for _, w := range warns {
		joined += w.String() + "\n"
	}
	if !strings.Contains(joined, "zero.md: skipped") || !strings.Contains(joined, "out.md: skipped") {
		t.Fatalf("warnings %s", joined)
	}
	// The user's own folders may be links elsewhere, as dotfiles often are.
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".claude", "commands"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(home, ".claude", "commands", "dot.md")); err != nil {
		t.Fatal(err)
	}
	if cmds, _ := LoadCommands(LoadOptions{HomeDir: home}); len(cmds) != 1 || cmds[0].Template != "the secret" {
		t.Fatalf("user link: %+v", cmds)
	}
}

func TestCommandExpand(t *testing.T) {
	c := Command{Template: "Fix issue #$1 in $2 ($3). All: $ARGUMENTS"}
	if got := c.Expand(`123 "src/a b.go"`); got != `Fix issue #123 in src/a b.go (). All: 123 "src/a b.go"` {
		t.Errorf("expand: %q", got)
	}
	plain := Command{Template: "Review the diff."}
	if got := plain.Expand(" focus on tests "); got != "Review the diff.\n\nArguments: focus on tests" {
		t.Errorf("no placeholder: %q", got)
	}
	if got := plain.Expand(""); got != "Review the diff." {
		t.Errorf("no args: %q", got)
	}
	if got := (Command{Template: "$ARGUMENTS$ARGUMENTS"}).Expand("$1"); got != "$1$1" {
		t.Errorf("arguments are not expanded twice: %q", got)
	}
}

// TestCommandMainAgent keeps a command naming OpenCode's main agent,
// build, in the main conversation unless it asks for a sub-task.
func TestCommandMainAgent(t *testing.T) {
	for data, want := range map[string]bool{
		"---\nagent: build\n---\nx":                false,
		"---\nagent: Build\nsubtask: true\n---\nx": true,
		"---\nagent: review\n---\nx":               true,
	} {
		c, _, err := parseCommand("c.md", "c", []byte(data))
		if err != nil || c.Subtask != want {
			t.Errorf("%q: subtask %v err %v, want %v", data, c.Subtask, err, want)
		}
	}
}
