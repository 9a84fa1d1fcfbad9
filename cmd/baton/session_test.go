package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/llm"
)

func TestCatalogOverrides(t *testing.T) {
	known, ok := llm.NewCatalog(nil).Lookup("gpt-4.1")
	if !ok || !known.PriceKnown {
		t.Fatalf("the embedded catalogue should price gpt-4.1: %+v", known)
	}
	free, half, yes, no := 0.0, 0.5, true, false
	got := llm.NewCatalog(catalogOverrides(map[string]modelPrice{
		"gpt-4.1":    {ContextWindow: 4096},
		"gpt-4o":     {Images: &no},
		"local/qwen": {ContextWindow: 32768, InputPerMillion: &free, OutputPerMillion: &half, Images: &yes},
		"local/none": {ContextWindow: 8192},
	}))
	if info, _ := got.Lookup("gpt-4.1"); !info.SupportsImages {
		t.Errorf("an override without images must keep what the catalogue knows: %+v", info)
	}
	if info, _ := got.Lookup("gpt-4o"); info.SupportsImages {
		t.Errorf("images = false must win over the catalogue: %+v", info)
	}
	if info, _ := got.Lookup("local/none"); info.SupportsImages {
		t.Errorf("an unknown model takes no images unless configured: %+v", info)
	}
	if info, _ := got.Lookup("gpt-4.1"); info.ContextWindow != 4096 || !info.PriceKnown || info.InputPerMillion != known.InputPerMillion {
		t.Errorf("a context-window override must keep the known price: %+v", info)
	}
	if info, _ := got.Lookup("local/qwen"); info.ContextWindow != 32768 || !info.PriceKnown || info.OutputPerMillion != 0.5 || !info.SupportsImages {
		t.Errorf("local model override: %+v", info)
	}
	if info, _ := got.Lookup("local/none"); info.PriceKnown {
		t.Errorf("a model without a price in config must stay unpriced: %+v", info)
	}
	if catalogOverrides(nil) != nil {
		t.Error("no overrides should give a nil map")
	}
}

func TestSessionSetup(t *testing.T) {
	ws, home := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(ws, ".baton", "agents", "broken.md"), "---\nname: broken\n---\nno description\n")
	cfg := config{Model: "m", SubagentModel: "s", Allow: []string{"write_file"}, SubagentDeny: []string{"run_command"},
		Limits: engine.Limits{MaxSteps: 9}}
	ep := endpoint{baseURL: "http://l/v1", apiKey: placeholderKey, notices: []string{"key withheld"}}
	types := agenttypes.Load(agenttypes.LoadOptions{ProjectDir: ws, HomeDir: home})
	setup := newSessionSetup(cfg, ep, types, ws, map[string]string{"HOME": home}, true)
	e := setup.engine
	if e.Model != "m" || e.SubagentModel != "s" || e.Workspace != ws || e.Mode != engine.ModeHeadless ||
		!slices.Equal(e.Allow, []string{"write_file"}) || !slices.Equal(e.SubagentDeny, []string{"run_command"}) ||
		e.Limits.MaxSteps != 9 || e.Client == nil || e.Catalog == nil || e.Types == nil {
		t.Errorf("engine config %+v", e)
	}
	if len(setup.notices) != 2 || setup.notices[0] != "key withheld" || !strings.Contains(setup.notices[1], "broken.md") {
		t.Errorf("notices %q: want the endpoint notice, then the skipped agent file", setup.notices)
	}
}

func TestPermissionMode(t *testing.T) {
	tests := []struct {
		yolo, headless bool
		want           engine.PermissionMode
	}{
		{false, false, engine.ModeAsk},
		{false, true, engine.ModeHeadless},
		{true, true, engine.ModeYolo},
		{true, false, engine.ModeYolo},
	}
	for _, tt := range tests {
		if got := (config{Yolo: tt.yolo}).mode(tt.headless); got != tt.want {
			t.Errorf("yolo %v headless %v: mode %s, want %s", tt.yolo, tt.headless, got, tt.want)
		}
	}
}
