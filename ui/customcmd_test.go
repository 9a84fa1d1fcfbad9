package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/event"
)

// commandDriver starts a UI with the custom commands of a real project
// folder tree, read as cmd reads them.
func commandDriver(t *testing.T) (*driver, *fakeSession) {
	t.Helper()
	project := t.TempDir()
	files := map[string]string{
		".claude/commands/review.md":        "---\ndescription: Review a file\nargument-hint: [file] [focus]\n---\nReview $1, focusing on $2.",
		".claude/commands/frontend/lint.md": "---\ndescription: \"Lint the \\e[31mfrontend\"\n---\nRun the frontend linters.",
		".opencode/command/audit.md":        "---\ndescription: Security audit\nagent: review\nmodel: anthropic/claude-sonnet-4\n---\nAudit $ARGUMENTS for injection.",
		".opencode/command/ghost.md":        "---\ndescription: Needs a missing agent\nagent: deployer\n---\nBuild it.",
		".baton/commands/help.md":           "---\ndescription: not the real help\n---\nShadowed.",
	}
	for name, content := range files {
		path := filepath.Join(project, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmds, warns := agenttypes.LoadCommands(agenttypes.LoadOptions{ProjectDir: project})
	if len(warns) != 0 || len(cmds) != 5 {
		t.Fatalf("commands %d, warnings %v", len(cmds), warns)
	}
	s := newFakeSession()
	opts := Options{Workspace: project, Theme: "dark", Commands: cmds, Types: agenttypes.Builtins()}
	return newDriverFor(t, s, opts, 100, 30), s
}

func TestCustomCommandsComplete(t *testing.T) {
	d, _ := commandDriver(t)
	for prefix, wants := range map[string][]string{
		"/r":  {"/review [file] [focus]", "Review a file"},
		"/a":  {"/agents", "/audit", "Security audit"},
		"/fr": {"/frontend:lint", "Lint the frontend"},
		"/he": {"/help", "show keys and commands"},
	} {
		d.m.input.Set("")
		d.typeText(prefix)
		screen := d.screen()
		for _, want := range wants {
			if !strings.Contains(screen, want) {
				t.Errorf("popup for %s lacks %q:\n%s", prefix, want, screen)
			}
		}
		if strings.Contains(screen, "not the real help") || strings.Contains(d.m.View(), "\x1b[31mfrontend") {
			t.Errorf("a shadowed command or a raw escape is on screen:\n%s", screen)
		}
		d.checkFits()
	}
	d.m.input.Set("")
	d.typeText("/fr")
	d.keys("tab")
	if got := d.m.input.Value(); got != "/frontend:lint" {
		t.Fatalf("tab completed to %q", got)
	}
}

func TestCustomCommandRunsAsAPrompt(t *testing.T) {
	d, s := commandDriver(t)
	d.typeText(`/review engine/agent.go "error handling"`)
	d.keys("enter")
	prompts := s.prompts()
	if len(prompts) != 1 || prompts[0] != "Review engine/agent.go, focusing on error handling." {
		t.Fatalf("prompts %q", prompts)
	}
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: prompts[0]})
	if !strings.Contains(d.screen(), "Review engine/agent.go, focusing on error handling.") {
		t.Fatalf("the expanded prompt is not shown:\n%s", d.screen())
	}
	// While a turn runs, the next command waits in the queue.
	d.typeText("/frontend:lint")
	d.keys("enter")
	if len(s.prompts()) != 1 || !strings.Contains(d.screen(), "Run the frontend linters.") {
		t.Fatalf("not queued: %q\n%s", s.prompts(), d.screen())
	}
	d.emit(event.TurnEnded{Meta: mainMeta, Status: event.StatusCompleted})
	if p := s.prompts(); len(p) != 2 || p[1] != "Run the frontend linters." {
		t.Fatalf("queued command not sent: %q", p)
	}
}

func TestSubtaskCommandAsksTheMainAgentToDelegate(t *testing.T) {
	d, s := commandDriver(t)
	d.typeText("/audit the login form")
	d.keys("enter")
	p := s.prompts()
	if len(p) != 1 || !strings.Contains(p[0], `call the task tool with subagent_type "review" and model "anthropic/claude-sonnet-4"`) ||
		!strings.HasSuffix(p[0], "\n\nAudit the login form for injection.") {
		t.Fatalf("prompts %q", p)
	}
	d.emit(event.TurnEnded{Meta: mainMeta, Status: event.StatusCompleted})
	d.typeText("/ghost")
	d.keys("enter")
	if p := s.prompts(); len(p) != 2 || p[1] != "Build it." || !strings.Contains(d.screen(), `names agent "deployer", which is not a sub-agent type here`) {
		t.Fatalf("unknown agent: %q\n%s", p, d.screen())
	}
}

func TestHelpListsCustomCommandsAndBuiltinsWin(t *testing.T) {
	d, s := commandDriver(t)
	d.typeText("/help")
	d.keys("enter")
	if len(s.prompts()) != 0 {
		t.Fatalf("/help ran the custom command: %q", s.prompts())
	}
	d.keys("pgup", "pgup", "pgup")
	var seen strings.Builder
	for range 12 {
		seen.WriteString(d.screen())
		d.keys("pgdown")
	}
	for _, want := range []string{"Custom commands", "built-in commands win", "/review [file] [focus]", "/help", "hidden by the built-in /help"} {
		if !strings.Contains(seen.String(), want) {
			t.Errorf("/help lacks %q:\n%s", want, seen.String())
		}
	}
}
