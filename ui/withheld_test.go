package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/agenttypes/corpus"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/event"
)

// TestOpenCodeDefaultWebfetchIsToldWithheld: a real OpenCode agent file
// (see testdata/agents/real/SOURCES) that says nothing of webfetch has it
// in OpenCode by default; /agents and the delegation card say baton
// withholds it and how to grant it, in lines that fit the screen.
func TestOpenCodeDefaultWebfetchIsToldWithheld(t *testing.T) {
	data := corpus.Read(t, "anomalyco__opencode/.opencode/agent/docs.md")
	project := t.TempDir()
	path := filepath.Join(project, ".opencode", "agent", "docs.md")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	reg := agenttypes.Load(agenttypes.LoadOptions{ProjectDir: project})
	docs, ok := reg.Lookup("docs")
	if !ok || len(docs.WithheldTools) != 1 || docs.WithheldTools[0] != "web_fetch" {
		t.Fatalf("docs %+v", docs)
	}
	d := newDriverFor(t, newFakeSession(), Options{Theme: "dark", Types: reg.All()}, 100, 40)
	d.command("/agents")
	screen := strings.Join(strings.Fields(d.screen()), " ")
	for _, want := range []string{"web_fetch withheld: OpenCode gives every agent webfetch by default", "add webfetch: allow under permission: in"} {
		if !strings.Contains(screen, want) {
			t.Errorf("/agents lacks %q:\n%s", want, d.screen())
		}
	}
	d.checkFits()

	d = newDriver(t, 100, 40)
	del := &event.ApprovalRequest{ID: "p1", Kind: event.ApproveDelegation, Delegation: &event.DelegationPreview{
		AgentType: "Docs", Description: "write docs", Prompt: "Document the API.", Tools: []string{"read_file"},
		Withheld: agenttypes.WithheldBrief(docs.WithheldTools, docs.Source), Model: "m", MaxSteps: 15,
	}}
	newRequest(t, del)
	d.emit(event.ApprovalRequested{Meta: mainMeta, Request: del})
	card := strings.Join(strings.Fields(d.screen()), " ")
	if !strings.Contains(card, "withheld web_fetch (OpenCode's default; to grant: webfetch: allow under permission: in docs.md)") {
		t.Errorf("the card does not tell it:\n%s", d.screen())
	}
	d.checkFits()
}
