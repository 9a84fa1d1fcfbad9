package config

import (
	"reflect"
	"slices"
	"testing"
)

// loadAs loads the world's config with the folder trusted or not.
func (w configWorld) loadAs(t *testing.T, trusted bool) Config {
	t.Helper()
	cfg, err := Load(Sources{Env: map[string]string{"HOME": w.home}, Workspace: w.workspace, Trusted: trusted})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func withheldNames(cfg Config) []string {
	var keys []string
	for _, k := range cfg.Withheld {
		keys = append(keys, k.Key)
	}
	return keys
}

// sameApartFromWithheld compares two configs on what a session uses.
func sameApartFromWithheld(a, b Config) bool {
	a.Withheld, b.Withheld = nil, nil
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
			if len(trusted.Withheld) != 0 || sameApartFromWithheld(trusted, baseline) {
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
	if len(cfg.Withheld) != 0 {
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
