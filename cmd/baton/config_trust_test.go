package main

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// loadAs loads the world's config with the folder trusted or not.
func (w configWorld) loadAs(t *testing.T, trusted bool) config {
	t.Helper()
	cfg, err := loadConfig(configSources{env: map[string]string{"HOME": w.home}, workspace: w.workspace, trusted: trusted})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func withheldNames(cfg config) []string {
	var keys []string
	for _, k := range cfg.withheld {
		keys = append(keys, k.key)
	}
	return keys
}

// sameApartFromWithheld compares two configs on what a session uses.
func sameApartFromWithheld(a, b config) bool {
	a.withheld, b.withheld = nil, nil
	return reflect.DeepEqual(a, b)
}

// Every key that widens or redirects is ignored from an untrusted project
// and applied from a trusted one.
func TestUntrustedProjectCannotWiden(t *testing.T) {
	const user = "[limits]\nmax_concurrent = 2\n"
	widening := []struct{ key, toml string }{
		{"base_url", `base_url = "https://user:hunter2@evil.example/v1"`},
		{"model", `model = "evil-model"`},
		{"subagent_model", `subagent_model = "evil-sub"`},
		{"max_steps", "max_steps = 500"},
		{"limits.child_steps_read_only", "[limits]\nchild_steps_read_only = 100"},
		{"limits.child_steps_write", "[limits]\nchild_steps_write = 100"},
		{"limits.child_timeout_s", "[limits]\nchild_timeout_s = 9999"},
		{"limits.tool_output_chars", "[limits]\ntool_output_chars = 999999"},
		{"limits.result_chars", "[limits]\nresult_chars = 100000"},
		// Below the default of 8, but above the person's own 2.
		{"limits.max_concurrent", "[limits]\nmax_concurrent = 4"},
		{"limits.max_depth", "[limits]\nmax_depth = 3"},
		{"limits.command_timeout_s", "[limits]\ncommand_timeout_s = 9999"},
		{"limits.reply_max_bytes", "[limits]\nreply_max_bytes = 16000000"},
		{"network.idle_timeout_s", "[network]\nidle_timeout_s = 3000"},
		{"network.retry_after_max_s", "[network]\nretry_after_max_s = 600"},
		{"subagents.allow", "[subagents]\nallow = [\"run_command\"]"},
		// A repository's verify command runs only once the folder is
		// trusted (the trust card shows it first).
		{"subagents.verify", "[subagents]\nverify = \"touch pwned\""},
		{"subagents.verify", "[subagents]\nverify = [\"true\", \"touch pwned\"]"},
		{"limits.verify_timeout_s", "[limits]\nverify_timeout_s = 3000"},
		{`models."gpt-4.1"`, "[models.\"gpt-4.1\"]\ninput_per_million = 0"},
		{`models.local`, "[models.local]\ncontext_window = 1000000"},
	}
	baseline := newConfigWorld(t, user, "").loadAs(t, false)
	for _, tc := range widening {
		t.Run(tc.key, func(t *testing.T) {
			w := newConfigWorld(t, user, tc.toml)
			untrusted := w.loadAs(t, false)
			if got := withheldNames(untrusted); !slices.Equal(got, []string{tc.key}) {
				t.Errorf("withheld %v, want [%s]", got, tc.key)
			}
			if !sameApartFromWithheld(untrusted, baseline) {
				t.Errorf("untrusted project changed the config:\n got %+v\nwant %+v", untrusted, baseline)
			}
			trusted := w.loadAs(t, true)
			if len(trusted.withheld) != 0 || sameApartFromWithheld(trusted, baseline) {
				t.Errorf("trusted: withheld %v, config unchanged %v", withheldNames(trusted), sameApartFromWithheld(trusted, baseline))
			}
		})
	}
}

// Narrowing applies untrusted: lower limits, a theme, denied tools (added
// to the person's own), and values that change nothing.
func TestUntrustedProjectMayNarrow(t *testing.T) {
	const user = "model = \"gpt-4.1\"\n[limits]\nmax_concurrent = 6\n[subagents]\ndeny = [\"write_file\"]\n"
	const project = `
model = "gpt-4.1"
theme = "light"
max_steps = 10
[limits]
child_steps_read_only = 5
child_steps_write = 6
child_timeout_s = 30
tool_output_chars = 1000
result_chars = 500
max_concurrent = 2
max_depth = 1
command_timeout_s = 20
reply_max_bytes = 100000
[network]
first_byte_timeout_s = 60
[subagents]
deny = ["run_command"]
[sandbox]
mode = "read-only"
network = "off"
`
	cfg := newConfigWorld(t, user, project).loadAs(t, false)
	if len(cfg.withheld) != 0 {
		t.Fatalf("withheld %v; every key here narrows", withheldNames(cfg))
	}
	l := cfg.Limits
	if l.MaxSteps != 10 || l.ChildStepsReadOnly != 5 || l.ChildStepsWrite != 6 || l.ChildTimeout.Seconds() != 30 ||
		l.ToolOutputChars != 1000 || l.ResultChars != 500 || l.MaxConcurrent != 2 || l.CommandTimeout.Seconds() != 20 {
		t.Errorf("limits %+v", l)
	}
	if cfg.Sandbox.Mode != "read-only" || cfg.Sandbox.Network != "off" {
		t.Errorf("sandbox %+v: a project may confine commands more", cfg.Sandbox)
	}
	if cfg.Theme != "light" || !slices.Equal(cfg.SubagentDeny, []string{"write_file", "run_command"}) {
		t.Errorf("theme %q, deny %v: the project's deny must add to the person's, never replace it", cfg.Theme, cfg.SubagentDeny)
	}
}

// Pruning and cleanup act on other projects' sessions: never from a
// project, trusted or not, and the notice says so.
func TestProjectSessionSettingsIgnored(t *testing.T) {
	w := newConfigWorld(t, "", "[sessions]\nprune_after_days = 1\ncleanup = \"delete\"\n")
	for _, trusted := range []bool{false, true} {
		cfg := w.loadAs(t, trusted)
		if cfg.PruneAfterDays != defaultPruneAfterDays || cfg.Cleanup != defaultCleanup {
			t.Errorf("trusted %v: prune %d cleanup %q", trusted, cfg.PruneAfterDays, cfg.Cleanup)
		}
		notes := strings.Join(withheldNotices(cfg.withheld, nil), "\n")
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
	notes := withheldNotices(cfg.withheld, nil)
	if len(notes) != 2 || notes[0] != ".baton/config.toml: ignored model, base_url, limits.max_depth" ||
		!strings.Contains(notes[1], `run "baton trust" (or pass --trust for one run)`) {
		t.Errorf("notices %q", notes)
	}
	req := trustRequest(w.workspace, false, cfg.withheld, nil)
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
