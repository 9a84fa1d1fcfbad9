package ui

import (
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// serverPrompts are the prompts a connected server offers, one of them
// described with terminal escapes.
func serverPrompts() []event.MCPPrompt {
	return []event.MCPPrompt{
		{Server: "srv", Name: "greet", Command: "mcp__srv__greet", Description: "Write a greeting for a city.",
			Arguments: []event.MCPPromptArgument{{Name: "city", Required: true}, {Name: "style"}}},
		{Server: "srv", Name: "show dot", Command: "mcp__srv__show_dot", Description: "\x1b]0;pwned\x07Look at a \x1b[31mdot"},
	}
}

// promptDriver is a UI whose session has MCP servers with prompts.
func promptDriver(t *testing.T) (*driver, *fakeSession) {
	t.Helper()
	s := newFakeSession()
	return newDriverFor(t, s, Options{Theme: "dark", MCPPrompts: serverPrompts}, 100, 30), s
}

func TestMCPPromptsComplete(t *testing.T) {
	d, _ := promptDriver(t)
	d.typeText("/mcp__")
	screen := d.screen()
	for _, want := range []string{"/mcp__srv__greet CITY [STYLE]", "Write a greeting for a city.", "/mcp__srv__show_dot", "Look at a dot"} {
		if !strings.Contains(screen, want) {
			t.Errorf("popup lacks %q:\n%s", want, screen)
		}
	}
	if strings.Contains(d.m.View(), "pwned") || strings.Contains(d.m.View(), "\x1b]0;") {
		t.Errorf("a server's escape reached the screen:\n%s", screen)
	}
	d.checkFits()
	d.m.input.Set("")
	d.typeText("/mcp__srv__g")
	d.keys("tab")
	if got := d.m.input.Value(); got != "/mcp__srv__greet " {
		t.Fatalf("tab completed to %q", got)
	}
}

func TestMCPPromptIsSentForTheEngineToFetch(t *testing.T) {
	d, s := promptDriver(t)
	d.typeText(`/mcp__srv__greet "New York" warm`)
	d.keys("enter")
	if p := s.prompts(); len(p) != 1 || p[0] != `/mcp__srv__greet "New York" warm` {
		t.Fatalf("prompts %q", p)
	}
	d.emit(event.TurnEnded{Meta: mainMeta, Status: event.StatusCompleted})
	d.typeText("/mcp__srv__nope")
	d.keys("enter")
	if p := s.prompts(); len(p) != 1 || !strings.Contains(d.screen(), "/mcp__srv__nope is no prompt of a connected MCP server") {
		t.Fatalf("an unknown prompt was sent: %q\n%s", p, d.screen())
	}
}

func TestHelpListsMCPPrompts(t *testing.T) {
	d, _ := promptDriver(t)
	d.typeText("/help")
	d.keys("enter")
	d.keys("pgup", "pgup", "pgup")
	var seen strings.Builder
	for range 12 {
		seen.WriteString(d.screen())
		d.keys("pgdown")
	}
	for _, want := range []string{"MCP prompts", "/mcp__srv__greet CITY [STYLE]", "Write a greeting for a city.", "/mcp__srv__show_dot"} {
		if !strings.Contains(seen.String(), want) {
			t.Errorf("/help lacks %q:\n%s", want, seen.String())
		}
	}
}
