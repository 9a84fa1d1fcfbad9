package command

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/pane"
)

// children are two finished children and a running one.
func children(styles *themes.Styles) []*pane.Pane {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var out []*pane.Pane
	for i, c := range []struct{ typ, desc string }{{"Explore", "find the auth code and every caller of it"}, {"Plan", "design the JWT migration"}, {"general-purpose", "write the \x1b[31mtests\x1b[0m"}} {
		meta := event.Meta{Agent: event.AgentID(fmt.Sprintf("%s-%d", strings.ToLower(c.typ), i+1)), AgentType: c.typ, Description: c.desc, Parent: event.MainAgent, Number: i + 1}
		p := pane.New(meta, i+1, nil)
		meta.Time = t0
		p.Apply(event.AgentStarted{Meta: meta, Prompt: "go"})
		p.Apply(event.UsageReported{Meta: meta, Total: event.Usage{TotalTokens: 12_400 * (i + 1), Requests: 1}})
		if i < 2 {
			meta.Time = t0.Add(5 * time.Second)
			p.Apply(event.AgentFinished{Meta: meta, Status: event.StatusCompleted,
				Stats: event.Stats{ToolCalls: 3 + i, Steps: 2, Duration: 5100 * time.Millisecond}})
		}
		out = append(out, p)
	}
	return out
}

// TestGoldenSubagentsAndAgents: /subagents' table gives way column by
// column, never past the width; /subagents info and /agents are text the
// conversation wraps.
func TestGoldenSubagentsAndAgents(t *testing.T) {
	styles := themes.New(themes.Dark())
	kids := children(&styles)
	seven := 7
	types := []agenttypes.Type{
		{Name: "explore", DisplayName: "Explore", Source: "built-in", Description: "Reads code.", Tools: []string{"read_file", "grep"}, MaxSteps: seven},
		{Name: "lint", Source: ".baton/agents/lint.md", Model: "gpt-4.1-mini", Tools: []string{"run_command"}, DroppedTools: []string{"WebFetch"}, Hidden: true},
	}
	for _, width := range []int{60, 80, 120} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			lines := Subagents(kids).Lines(&styles, width)
			for _, l := range lines {
				if w := ansi.StringWidth(l); w > width {
					t.Errorf("a line is %d wide: %q", w, ansi.Strip(l))
				}
			}
			info := ChildInfo(kids[0].Info())
			out := ansi.Strip(strings.Join(lines, "\n")) + "\n\n" + info + "\n\n" + AgentTypes(types, []string{"bad.md: no name"}, nil) + "\n"
			for _, want := range []string{"Sub-agents", "#", "12.4k", "37.2k", "done", "running", "5.1s", "3 tool calls", "Explore (explore) · built-in",
				"lint (lint) · .baton/agents/lint.md · hidden", "dropped WebFetch", "⚠ bad.md: no name"} {
				if !strings.Contains(out, want) {
					t.Errorf("lacks %q:\n%s", want, out)
				}
			}
			// The ID is the column people type: never cut, at any width.
			for _, p := range kids {
				if !strings.Contains(ansi.Strip(strings.Join(lines, "\n")), "  "+string(p.ID())+"  ") {
					t.Errorf("at %d the table cuts the id %s:\n%s", width, p.ID(), ansi.Strip(strings.Join(lines, "\n")))
				}
			}
			if width >= 80 && !strings.Contains(out, "write the tests") {
				t.Errorf("at %d the description is cut:\n%s", width, out)
			}
			if strings.Contains(strings.Join(lines, "\n")+info, "\x1b[31m") {
				t.Error("a description's escape reached the table")
			}
			golden.RequireEqual(t, []byte(out))
		})
	}
}
