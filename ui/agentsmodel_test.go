package ui

import (
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/event"
)

// TestAgentsShowsResolvedModel: /agents says which model each type's
// children run on and why, and what an OpenCode file sets besides.
func TestAgentsShowsResolvedModel(t *testing.T) {
	temp := 0.1
	opts := Options{Theme: "dark", Types: []agenttypes.Type{
		{Name: "code-explorer", Description: "Explores.", Tools: []string{"read_file"}, Model: "sonnet", Source: ".claude/agents/code-explorer.md"},
		{Name: "review", Description: "Reviews.", Tools: []string{"read_file"}, Model: agenttypes.InheritModel, Source: ".opencode/agent/review.md",
			Temperature: &temp, Permissions: agenttypes.Rules{Allow: []string{"run_command(git diff:*)"}, Deny: []string{"edit_file"}}},
	}, ModelOf: func(t agenttypes.Type) (string, string) {
		if t.Model == "sonnet" {
			return "anthropic/claude-sonnet-4.5", "the endpoint does not serve sonnet; anthropic/claude-sonnet-4.5 is the served model that matches"
		}
		return "sub-model", "inherits the sub-agent model"
	}}
	d := newDriverFor(t, newFakeSession(), opts, 200, 40)
	d.command("/agents")
	screen := d.screen()
	for _, want := range []string{
		"model   sonnet → anthropic/claude-sonnet-4.5 (the endpoint does not serve sonnet;",
		"model   inherit → sub-model",
		"sampling temperature 0.1",
		"allow   run_command(git diff:*)",
		"deny    edit_file",
	} {
		if !strings.Contains(screen, want) {
			t.Errorf("/agents lacks %q:\n%s", want, screen)
		}
	}
}

// TestDelegationCardShowsDroppedToolsAndModelReason: the card tells the
// person what the file asked for that the child will not have, and why
// its model is not the one the file names.
func TestDelegationCardShowsDroppedToolsAndModelReason(t *testing.T) {
	d := newDriver(t, 140, 40)
	del := &event.ApprovalRequest{ID: "p1", Kind: event.ApproveDelegation, Delegation: &event.DelegationPreview{
		AgentType: "Code Explorer", Description: "trace auth", Prompt: "Trace the auth flow.",
		Tools: []string{"read_file", "grep"}, DroppedTools: []string{"WebFetch", "mcp__context7__docs"},
		Model: "anthropic/claude-sonnet-4.5", ModelWhy: "the endpoint does not serve sonnet; anthropic/claude-sonnet-4.5 is the served model that matches",
		MaxSteps: 15,
	}}
	newRequest(t, del)
	d.emit(event.ApprovalRequested{Meta: mainMeta, Request: del})
	for _, want := range []string{"dropped WebFetch mcp__context7__docs (baton has no such tool)", "model anthropic/claude-sonnet-4.5",
		"the endpoint does not serve sonnet"} {
		if !strings.Contains(d.screen(), want) {
			t.Errorf("delegation card lacks %q:\n%s", want, d.screen())
		}
	}
}
