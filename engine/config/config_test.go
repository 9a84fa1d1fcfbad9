package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// configWorld is a temporary home and workspace for loadConfig.
type configWorld struct {
	home, workspace string
}

func newConfigWorld(t *testing.T, user, project string) configWorld {
	t.Helper()
	w := configWorld{home: t.TempDir(), workspace: t.TempDir()}
	if user != "" {
		writeFile(t, filepath.Join(w.home, ".config", "baton", "config.toml"), user)
	}
	if project != "" {
		writeFile(t, filepath.Join(w.workspace, ".baton", "config.toml"), project)
	}
	return w
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// testThemes stand for the theme names a front end passes.
var testThemes = []string{"dark", "light"}

// load reads the world's files as a trusted folder, with flags and env
// layered over them.
func (w configWorld) load(t *testing.T, flags Overrides, env map[string]string) (Config, error) {
	t.Helper()
	full := map[string]string{"HOME": w.home}
	for k, v := range env {
		full[k] = v
	}
	return Load(Sources{Flags: flags, Env: full, Workspace: w.workspace, Trusted: true, Themes: testThemes})
}

// ptr is a pointer to v, for Overrides.
func ptr[T any](v T) *T { return &v }

func TestConfigPrecedence(t *testing.T) {
	const user = "model = \"user-model\"\nbase_url = \"http://user.example/v1\"\nmax_steps = 10\ntheme = \"light\"\n"
	const project = "model = \"project-model\"\nbase_url = \"http://project.example/v1\"\nmax_steps = 20\n"
	tests := []struct {
		name          string
		user, project string
		env           map[string]string
		flags         Overrides
		model, url    string
		from          source
		steps         int
		theme         string
	}{
		{name: "defaults", model: DefaultModel, from: fromDefault},
		{name: "user", user: user, model: "user-model", url: "http://user.example/v1", from: fromUser, steps: 10, theme: "light"},
		{name: "project over user", user: user, project: project,
			model: "project-model", url: "http://project.example/v1", from: fromProject, steps: 20, theme: "light"},
		{name: "env over project", user: user, project: project,
			env:   map[string]string{"BATON_MODEL": "env-model", "OPENAI_BASE_URL": "http://env.example/v1"},
			model: "env-model", url: "http://env.example/v1", from: fromEnv, steps: 20, theme: "light"},
		{name: "flags over env", user: user, project: project,
			env:   map[string]string{"BATON_MODEL": "env-model", "OPENAI_BASE_URL": "http://env.example/v1"},
			flags: Overrides{Model: ptr("flag-model"), BaseURL: ptr("http://flag.example/v1"), MaxSteps: ptr(7), Theme: ptr("dark")},
			model: "flag-model", url: "http://flag.example/v1", from: fromFlag, steps: 7, theme: "dark"},
		{name: "empty env is unset", user: user, env: map[string]string{"BATON_MODEL": "", "OPENAI_BASE_URL": ""},
			model: "user-model", url: "http://user.example/v1", from: fromUser, steps: 10, theme: "light"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newConfigWorld(t, tt.user, tt.project)
			cfg, err := w.load(t, tt.flags, tt.env)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Model != tt.model || cfg.BaseURL != tt.url || cfg.baseURLFrom != tt.from ||
				cfg.Limits.MaxSteps != tt.steps || cfg.Theme != tt.theme {
				t.Errorf("got model %q url %q from %d steps %d theme %q; want %q %q %d %d %q",
					cfg.Model, cfg.BaseURL, cfg.baseURLFrom, cfg.Limits.MaxSteps, cfg.Theme,
					tt.model, tt.url, tt.from, tt.steps, tt.theme)
			}
		})
	}
}

func TestConfigTablesAndLists(t *testing.T) {
	const user = `
api_key = "sk-user"
subagent_model = "user-sub"
allow = ["write_file"]
yolo = true
[limits]
child_timeout_s = 60
max_concurrent = 2
[subagents]
deny = ["run_command"]
[models."local/qwen"]
context_window = 32768
images = true
[sessions]
cleanup = "delete"
`
	const project = `
[limits]
max_concurrent = 4
command_timeout_s = 30
[subagents]
allow = ["read_file", "grep"]
[models."local/qwen"]
input_per_million = 0
output_per_million = 0.5
[sessions]
prune_after_days = 7
`
	w := newConfigWorld(t, user, project)
	cfg, err := w.load(t, Overrides{}, map[string]string{"BATON_SUBAGENT_MODEL": "env-sub", "BATON_DEBUG": "/tmp/x.log"})
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, got, want any) {
		t.Helper()
		if !equalAny(got, want) {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	check("api key", cfg.APIKey, "sk-user")
	check("subagent model", cfg.SubagentModel, "env-sub")
	check("allow", cfg.Allow, []string{"write_file"})
	check("yolo", cfg.Yolo, true)
	if cfg, err := w.load(t, Overrides{Yolo: ptr(false)}, nil); err != nil || cfg.Yolo {
		t.Errorf("--yolo=false must override the user config: yolo %v, err %v", cfg.Yolo, err)
	}
	check("child timeout", cfg.Limits.ChildTimeout, 60*time.Second)
	check("command timeout", cfg.Limits.CommandTimeout, 30*time.Second)
	check("max concurrent", cfg.Limits.MaxConcurrent, 4)
	check("subagent allow", cfg.SubagentAllow, []string{"read_file", "grep"})
	check("subagent deny", cfg.SubagentDeny, []string{"run_command"})
	check("cleanup", cfg.Cleanup, "delete")
	// Pruning is a user setting: a project's [sessions] never applies.
	check("prune", cfg.PruneAfterDays, defaultPruneAfterDays)
	check("debug log", cfg.DebugLog, "/tmp/x.log")
	m := cfg.Models["local/qwen"]
	if m.ContextWindow != 32768 || m.InputPerMillion == nil || *m.InputPerMillion != 0 ||
		m.OutputPerMillion == nil || *m.OutputPerMillion != 0.5 || m.Images == nil || !*m.Images {
		t.Errorf("merged model override = %+v", m)
	}
}

func equalAny(got, want any) bool {
	if g, ok := got.([]string); ok {
		w, _ := want.([]string)
		return slices.Equal(g, w)
	}
	return got == want
}

func TestConfigDefaultsAndXDG(t *testing.T) {
	xdg := t.TempDir()
	writeFile(t, filepath.Join(xdg, "baton", "config.toml"), `model = "xdg-model"`)
	w := newConfigWorld(t, `model = "home-model"`, "")
	cfg, err := w.load(t, Overrides{}, map[string]string{"XDG_CONFIG_HOME": xdg})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Model != "xdg-model" || cfg.PruneAfterDays != defaultPruneAfterDays || cfg.Cleanup != defaultCleanup ||
		cfg.AutoCompactAt != 0.85 || !cfg.Mouse {
		t.Errorf("got %+v", cfg)
	}
	writeFile(t, filepath.Join(xdg, "baton", "config.toml"), "mouse = false\n[context]\nauto_compact_at = 0.5")
	if cfg, err := w.load(t, Overrides{}, map[string]string{"XDG_CONFIG_HOME": xdg}); err != nil || cfg.AutoCompactAt != 0.5 || cfg.Mouse {
		t.Errorf("[context] and mouse: %+v, %v", cfg, err)
	}
	// A relative XDG_CONFIG_HOME is ignored, as the XDG spec says.
	cfg, err = w.load(t, Overrides{}, map[string]string{"XDG_CONFIG_HOME": "relative"})
	if err != nil || cfg.Model != "home-model" {
		t.Errorf("relative XDG_CONFIG_HOME: model %q, err %v", cfg.Model, err)
	}
	if got := UserPath(map[string]string{}); got != "" {
		t.Errorf("no HOME and no XDG_CONFIG_HOME: path %q, want none", got)
	}
}

func TestConfigErrors(t *testing.T) {
	tests := []struct {
		name, user string
		env        map[string]string
		want       []string // substrings of the error
	}{
		{name: "unknown key", user: "modle = \"x\"",
			want: []string{"/.config/baton/config.toml: ", `unknown key "modle" (known: model, base_url, api_key`}},
		{name: "unknown limits key", user: "[limits]\nmax_step = 3",
			want: []string{"/.config/baton/config.toml: ", `unknown key "limits.max_step" (known in [limits]: child_steps_read_only`}},
		{name: "unknown table", user: "[limit]\nmax_steps = 3", want: []string{`unknown key "limit" (known: model`}},
		{name: "unknown model key", user: "[models.\"gpt-4.1\"]\nwindow = 3",
			want: []string{`unknown key "models."gpt-4.1".window" (known in [models."gpt-4.1"]: context_window`}},
		{name: "unknown permissions key", user: "[permissions]\nallw = []",
			want: []string{`unknown key "permissions.allw" (known in [permissions]: allow, ask, deny)`}},
		{name: "model not a table", user: "[models]\no3 = 3", want: []string{`models.o3: expected a table ([models.o3]), got 3`}},
		{name: "sandbox not a table", user: "sandbox = \"off\"", want: []string{`sandbox: expected a table ([sandbox]), got "off"`}},
		{name: "negative max_steps", user: "max_steps = -3",
			want: []string{"/.config/baton/config.toml: max_steps: expected a positive integer, got -3"}},
		{name: "string max_steps", user: `max_steps = "ten"`, want: []string{`max_steps: expected a positive integer, got "ten"`}},
		{name: "bad yolo", user: `yolo = "yes"`, want: []string{`yolo: expected true or false, got "yes"`}},
		{name: "bad base url", user: `base_url = "localhost:11434"`, want: []string{`base_url: expected an http(s) URL`}},
		{name: "unknown tool", user: `allow = ["rm"]`, want: []string{`allow: expected a list of rules such as`, `got "rm"`, `unknown tool "rm"`}},
		{name: "bad cleanup", user: "[sessions]\ncleanup = \"trash\"", want: []string{`sessions.cleanup: expected "keep" or "delete", got "trash"`}},
		{name: "negative price", user: "[models.m]\ninput_per_million = -1", want: []string{`models.m.input_per_million: expected a non-negative number, got -1`}},
		{name: "unknown theme", user: `theme = "neon"`, want: []string{`theme: expected a theme name (dark,`, `got "neon"`}},
		{name: "empty model", user: `model = ""`, want: []string{`model: expected a non-empty string, got ""`}},
		{name: "scalar for a table", user: "limits = 3", want: []string{"/.config/baton/config.toml: limits: expected a table ([limits]), got 3"}},
		{name: "scalar for a model table", user: "[models]\nx = 3", want: []string{"models.x: expected a table ([models.x]), got 3"}},
		{name: "array of tables", user: "[[sessions]]\ncleanup = \"keep\"", want: []string{"sessions: expected a table ([sessions]), got an array of tables"}},
		{name: "fraction for a count", user: "[models.\"a.b\"]\ncontext_window = 1.5", want: []string{`models."a.b".context_window: expected a positive integer, got 1.5`}},
		{name: "syntax", user: "model = ", want: []string{"/.config/baton/config.toml: line 1: "}},
		{name: "limit above its maximum", user: "[limits]\ntool_output_chars = 5000000",
			want: []string{"/.config/baton/config.toml: limits.tool_output_chars: expected at most 1000000, got 5000000"}},
		{name: "reply cap above its maximum", user: "[limits]\nreply_max_bytes = 1073741824",
			want: []string{"limits.reply_max_bytes: expected at most 16777216, got 1073741824"}},
		{name: "timeout above its maximum", user: "[network]\nidle_timeout_s = 86400",
			want: []string{"network.idle_timeout_s: expected at most 3600, got 86400"}},
		{name: "max_steps above its maximum", user: "max_steps = 5000", want: []string{"max_steps: expected at most 1000, got 5000"}},
		{name: "wake turns above their maximum", user: "[limits]\nwake_turns_per_prompt = 101", want: []string{"limits.wake_turns_per_prompt: expected at most 100, got 101"}},
		{name: "background tasks above their maximum", user: "[limits]\nbackground_per_prompt = 101", want: []string{"limits.background_per_prompt: expected at most 100, got 101"}},
		{name: "zero timeout", user: "[network]\nconnect_timeout_s = 0", want: []string{"network.connect_timeout_s: expected a positive integer, got 0"}},
		{name: "unknown network key", user: "[network]\ntimeout_s = 3",
			want: []string{`unknown key "network.timeout_s" (known in [network]: connect_timeout_s, first_byte_timeout_s, idle_timeout_s, retry_after_max_s)`}},
		{name: "scalar for the network table", user: "network = 3", want: []string{"network: expected a table ([network]), got 3"}},
		{name: "compaction fill above 1", user: "[context]\nauto_compact_at = 85", want: []string{"context.auto_compact_at: expected a number from 0 to 1 (0 turns it off), got 85"}},
		{name: "unknown context key", user: "[context]\nauto_compact = 0.5", want: []string{`unknown key "context.auto_compact" (known in [context]: auto_compact_at)`}},
		{name: "bad mouse", user: `mouse = "off"`, want: []string{`mouse: expected true or false, got "off"`}},
		{name: "bad env url", env: map[string]string{"OPENAI_BASE_URL": "ftp://x"}, want: []string{`OPENAI_BASE_URL: expected an http(s) URL`, `got "ftp://x"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newConfigWorld(t, tt.user, "")
			_, err := w.load(t, Overrides{}, tt.env)
			if err == nil {
				t.Fatal("no error")
			}
			for _, want := range tt.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not contain %q", err, want)
				}
			}
		})
	}
}

// TestBackgroundBoundsFromConfig: the [limits] keys that bound what
// background results set off reach the engine; an untrusted project may
// lower them, not raise them.
func TestBackgroundBoundsFromConfig(t *testing.T) {
	w := newConfigWorld(t, "[limits]\nwake_turns_per_prompt = 3\nbackground_per_prompt = 4\n", "")
	cfg, err := w.load(t, Overrides{}, nil)
	if err != nil || cfg.Limits.WakeTurns != 3 || cfg.Limits.BackgroundPerPrompt != 4 {
		t.Fatalf("limits %+v, %v", cfg.Limits, err)
	}
	for project, want := range map[string]int{"[limits]\nwake_turns_per_prompt = 1\n": 1, "[limits]\nwake_turns_per_prompt = 50\n": 3} {
		w := newConfigWorld(t, "[limits]\nwake_turns_per_prompt = 3\n", project)
		cfg, err := Load(Sources{Env: map[string]string{"HOME": w.home}, Workspace: w.workspace})
		if err != nil || cfg.Limits.WakeTurns != want {
			t.Errorf("untrusted %q: wake turns %d, %v; want %d", project, cfg.Limits.WakeTurns, err, want)
		}
	}
}
