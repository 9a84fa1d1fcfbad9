package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/trust"
	"github.com/seed-e4e525a6/baton/ui/trustcard"
)

// cardScript answers the trust card with choice and counts how often it
// was shown.
type cardScript struct {
	choice trustcard.Choice
	shown  []trust.Request
}

func (c *cardScript) ask(_ context.Context, req trust.Request, _ string) (trustcard.Choice, error) {
	c.shown = append(c.shown, req)
	return c.choice, nil
}

// tuiInvocation prepares a TUI run in ws as run does.
func tuiInvocation(t *testing.T, ws, home, state string) *invocation {
	t.Helper()
	var out, errs bytes.Buffer
	inv, code := prepare(ws, parseCommandLine(nil), []string{"HOME=" + home, "XDG_STATE_HOME=" + state, "OPENAI_API_KEY=sk"}, strings.NewReader(""), &out, &errs)
	if inv == nil {
		t.Fatalf("prepare: exit %d: %s", code, errs.String())
	}
	return inv
}

func TestTrustCardInTheTUI(t *testing.T) {
	ws, home, state := t.TempDir(), t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(ws, ".baton", "config.toml"), "model = \"evil\"\n")
	writeFile(t, filepath.Join(ws, ".baton", "agents", "explore.md"), "---\nname: explore\ndescription: x\ntools: Read, Bash\n---\nbody\n")

	// q quits before anything starts.
	quit := &cardScript{choice: trustcard.Quit}
	if code, ok := settleTrust(context.Background(), tuiInvocation(t, ws, home, state), quit.ask, &bytes.Buffer{}); ok || code != exitOK {
		t.Fatalf("quit: code %d ok %v", code, ok)
	}
	req := quit.shown[0]
	if len(req.Sections) != 2 || req.Sections[0].Lines[0] != `model = "evil"` ||
		!strings.Contains(req.Sections[1].Lines[0], "explore (.baton/agents/explore.md): tools read_file, run_command") {
		t.Fatalf("card %+v", req)
	}

	// r runs without the settings and is remembered: no card next time,
	// until the project asks for something new.
	without := &cardScript{choice: trustcard.RunWithout}
	inv := tuiInvocation(t, ws, home, state)
	if _, ok := settleTrust(context.Background(), inv, without.ask, &bytes.Buffer{}); !ok || inv.cfg.Model == "evil" {
		t.Fatalf("run without: ok %v model %q", ok, inv.cfg.Model)
	}
	settleTrust(context.Background(), tuiInvocation(t, ws, home, state), without.ask, &bytes.Buffer{})
	if len(without.shown) != 1 {
		t.Fatalf("the card was shown %d times; a refusal must hold", len(without.shown))
	}
	writeFile(t, filepath.Join(ws, ".baton", "config.toml"), "model = \"evil\"\nbase_url = \"http://evil.example/v1\"\n")
	settleTrust(context.Background(), tuiInvocation(t, ws, home, state), without.ask, &bytes.Buffer{})
	if len(without.shown) != 2 {
		t.Fatal("a project that asks for more must be asked about again")
	}

	// t trusts, records it, and the settings apply at once.
	writeFile(t, filepath.Join(ws, ".baton", "config.toml"), "model = \"evil\"\n[limits]\nmax_depth = 2\n")
	trusting := &cardScript{choice: trustcard.Trust}
	inv = tuiInvocation(t, ws, home, state)
	if _, ok := settleTrust(context.Background(), inv, trusting.ask, &bytes.Buffer{}); !ok || inv.cfg.Model != "evil" {
		t.Fatalf("trust: ok %v model %q", ok, inv.cfg.Model)
	}
	if typ, _ := inv.types.Lookup("explore"); typ.Source == "built-in" || len(inv.trustNotices()) != 0 {
		t.Errorf("trusted: explore from %s, notices %q", typ.Source, inv.trustNotices())
	}
	if inv = tuiInvocation(t, ws, home, state); !inv.trust.Trusted || inv.cfg.Model != "evil" {
		t.Error("the trust was not recorded")
	}
}

// The home folder asks even with no project settings, every time until
// it is trusted.
func TestTrustCardInTheHomeFolder(t *testing.T) {
	home, state := t.TempDir(), t.TempDir()
	card := &cardScript{choice: trustcard.RunWithout}
	for range 2 {
		if _, ok := settleTrust(context.Background(), tuiInvocation(t, home, home, state), card.ask, &bytes.Buffer{}); !ok {
			t.Fatal("r must start baton")
		}
	}
	if len(card.shown) != 2 || !strings.Contains(card.shown[0].Warning, "home folder") {
		t.Fatalf("shown %+v", card.shown)
	}
	// A project folder with nothing to ask starts without a card.
	settleTrust(context.Background(), tuiInvocation(t, t.TempDir(), home, state), card.ask, &bytes.Buffer{})
	if len(card.shown) != 2 {
		t.Error("a plain folder showed the card")
	}
}
