package main

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/config"
	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
)

func TestCatalogOverrides(t *testing.T) {
	known, ok := llm.NewCatalog(nil).Lookup("gpt-4.1")
	if !ok || !known.PriceKnown {
		t.Fatalf("the embedded catalogue should price gpt-4.1: %+v", known)
	}
	free, half, yes, no := 0.0, 0.5, true, false
	got := llm.NewCatalog(catalogOverrides(map[string]config.ModelPrice{
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
	cfg := config.Config{Model: "m", SubagentModel: "s", Allow: []string{"write_file"}, SubagentDeny: []string{"run_command"},
		Limits: engine.Limits{MaxSteps: 9}}
	ep := config.Endpoint{BaseURL: "http://l/v1", APIKey: "baton-no-key", Notices: []string{"key withheld"}}
	types := agenttypes.Load(agenttypes.LoadOptions{ProjectDir: ws, HomeDir: home})
	setup := newSessionSetup(cfg, ep, types, ws, map[string]string{"HOME": home}, true)
	e := setup.engine
	if e.Model != "m" || e.SubagentModel != "s" || e.Workspace != ws || e.Mode != permission.Headless ||
		!slices.Equal(e.Allow, []string{"write_file"}) || !slices.Equal(e.SubagentDeny, []string{"run_command"}) ||
		e.Limits.MaxSteps != 9 || e.Client == nil || e.Catalog == nil || e.Types == nil {
		t.Errorf("engine config %+v", e)
	}
	if len(setup.notices) != 2 || setup.notices[0] != "key withheld" || !strings.Contains(setup.notices[1], "broken.md") {
		t.Errorf("notices %q: want the endpoint notice, then the skipped agent file", setup.notices)
	}
}

func TestSessionSetupLoadsCustomCommands(t *testing.T) {
	workspace, home := t.TempDir(), t.TempDir()
	writeFile(t, workspace+"/.claude/commands/git/commit.md", "---\ndescription: commit\n---\nCommit $ARGUMENTS")
	writeFile(t, home+"/.claude/commands/mine.md", "Mine")
	env := map[string]string{"HOME": home}
	setup := newSessionSetup(config.Config{}, config.Endpoint{}, agenttypes.NewRegistry(), workspace, env, false)
	if len(setup.commands) != 2 || setup.commands[0].Name != "git:commit" || setup.commands[1].Name != "mine" {
		t.Fatalf("commands %+v", setup.commands)
	}
	// baton -p "/mine" expands too.
	if headless := newSessionSetup(config.Config{}, config.Endpoint{}, agenttypes.NewRegistry(), workspace, env, true); len(headless.commands) != 2 {
		t.Fatalf("headless commands %+v", headless.commands)
	}
}

// The config's network bounds, reply cap and web_fetch settings reach
// the engine's configuration.
func TestSessionSetupCarriesNetworkAndWebFetch(t *testing.T) {
	cfg := config.Config{Network: config.Network{RetryAfterMax: 90 * time.Second}, Limits: engine.Limits{ReplyMaxBytes: 1 << 20}}
	cfg.WebFetch.AllowPrivate = true
	setup := newSessionSetup(cfg, config.Endpoint{BaseURL: "http://localhost:1/v1"}, agenttypes.NewRegistry(), t.TempDir(), nil, true)
	if e := setup.engine; e.RetryAfterMax != 90*time.Second || e.Limits.ReplyMaxBytes != 1<<20 || !e.WebFetch.AllowPrivate {
		t.Fatalf("engine config: retry-after max %v, reply cap %d, web fetch %+v", e.RetryAfterMax, e.Limits.ReplyMaxBytes, e.WebFetch)
	}
}

// TestServedModelsCarryTheCataloguesFacts: the /model picker lists what
// the endpoint serves with what the catalogue knows of each, and an
// unknown model bare; before the list has come it says it is not ready.
func TestServedModelsCarryTheCataloguesFacts(t *testing.T) {
	srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) { w.Text("ok") })
	srv.ServeModels("gpt-4.1", "local/unknown")
	catalog := llm.NewCatalog(nil)
	s, err := engine.NewSession(context.Background(), engine.Config{Client: srv.Client(), Model: "gpt-4.1", Workspace: t.TempDir(), Catalog: catalog})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	list := servedModels(s, catalog)
	<-s.ServedModelsLoaded()
	models, ready := list()
	if !ready || len(models) != 2 {
		t.Fatalf("models %+v ready %v", models, ready)
	}
	known, _ := catalog.Lookup("gpt-4.1")
	if m := models[0]; m.ID != "gpt-4.1" || m.ContextWindow != known.ContextWindow || !m.PriceKnown || m.InputPerMillion != known.InputPerMillion {
		t.Errorf("gpt-4.1: %+v, catalogue %+v", m, known)
	}
	if m := models[1]; m.ID != "local/unknown" || m.ContextWindow != 0 || m.PriceKnown {
		t.Errorf("unknown model: %+v", m)
	}
}
