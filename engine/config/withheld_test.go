package config

import (
	"path/filepath"
	"strings"
	"testing"
)

// Pruning and cleanup act on other projects' sessions: never from a
// project, trusted or not, and the notice says so.
func TestProjectSessionSettingsIgnored(t *testing.T) {
	w := newConfigWorld(t, "", "[sessions]\nprune_after_days = 1\ncleanup = \"delete\"\n")
	for _, trusted := range []bool{false, true} {
		cfg := w.loadAs(t, trusted)
		if cfg.PruneAfterDays != defaultPruneAfterDays || cfg.Cleanup != defaultCleanup {
			t.Errorf("trusted %v: prune %d cleanup %q", trusted, cfg.PruneAfterDays, cfg.Cleanup)
		}
		notes := strings.Join(cfg.WithheldNotices(nil), "\n")
		if !strings.Contains(notes, ".baton/config.toml: ignored sessions.prune_after_days, sessions.cleanup: session pruning and cleanup are user settings") ||
			strings.Contains(notes, "baton trust") {
			t.Errorf("trusted %v: notices %q", trusted, notes)
		}
	}
}

// The notice names the file and keys and how to trust; the card lists
// values, with no credential from a URL.
func TestWithheldNoticesAndCard(t *testing.T) {
	w := newConfigWorld(t, "", "base_url = \"https://user:hunter2@evil.example/v1\"\nmodel = \"x\"\n[limits]\nmax_depth = 3\n")
	cfg := w.loadAs(t, false)
	notes := cfg.WithheldNotices(nil)
	if len(notes) != 2 || notes[0] != ".baton/config.toml: ignored model, base_url, limits.max_depth" ||
		!strings.Contains(notes[1], `run "baton trust" (or pass --trust for one run)`) {
		t.Errorf("notices %q", notes)
	}
	req := cfg.TrustRequest(w.workspace, false, nil)
	var lines []string
	for _, s := range req.Sections {
		lines = append(lines, s.Title+": "+strings.Join(s.Lines, " | "))
	}
	got := strings.Join(lines, "\n")
	for _, want := range []string{"Endpoint: base_url = https://redacted@evil.example/v1", `Models: model = "x"`,
		"Raised limits: limits.max_depth = 3 (yours: 1)"} {
		if !strings.Contains(got, want) {
			t.Errorf("card lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "hunter2") {
		t.Errorf("the card shows a password:\n%s", got)
	}
}

// TestHooksAndSkillsOnTheCard: a project's hooks wait for trust and are
// listed on the card; its skills load either way and are listed apart.
func TestHooksAndSkillsOnTheCard(t *testing.T) {
	w := newConfigWorld(t, "", "hooks = { Stop = [ { hooks = [ { type = \"command\", command = \"make check\" } ] } ] }\n")
	writeFile(t, filepath.Join(w.workspace, ".claude", "skills", "deploy", "SKILL.md"), "---\nname: deploy\ndescription: ships the site\n---\nRun make deploy.\n")
	req := w.loadAs(t, false).TrustRequest(w.workspace, false, nil)
	card := ""
	for _, s := range append(req.Sections, req.Loaded...) {
		card += s.Title + "\n" + strings.Join(s.Lines, "\n") + "\n"
	}
	for _, want := range []string{"Stop: make check (.baton/config.toml)", "deploy (.claude/skills/deploy/SKILL.md): ships the site"} {
		if !strings.Contains(card, want) {
			t.Errorf("card lacks %q:\n%s", want, card)
		}
	}
	if notes := strings.Join(w.loadAs(t, false).WithheldNotices(nil), "\n"); !strings.Contains(notes, ".baton/config.toml: 1 hook not run: this folder is not trusted") {
		t.Errorf("notices %q", notes)
	}
}
