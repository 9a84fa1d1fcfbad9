package config

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// TestProjectConfigProblemsAreNotices is a repository trying to keep baton
// from starting with its .baton/config.toml: every wrong key is dropped
// with a notice naming the file and the key, the file's other keys still
// apply, and a file that does not parse is ignored whole.
func TestProjectConfigProblemsAreNotices(t *testing.T) {
	tests := []struct {
		name, project string
		notice        string
		// applies says the good key (max_steps = 7) still applied.
		applies bool
	}{
		{"limit above its maximum", "[limits]\ntool_output_chars = 2000000",
			".baton/config.toml: limits.tool_output_chars: expected at most 1000000, got 2000000; ignored", true},
		{"timeout above its maximum", "[network]\nidle_timeout_s = 86400",
			".baton/config.toml: network.idle_timeout_s: expected at most 3600, got 86400; ignored", true},
		{"unknown key", "[limits]\nmax_step = 3", `.baton/config.toml: unknown key "limits.max_step" (known in [limits]: `, true},
		{"unknown table", "[limit]\nx = 3", `.baton/config.toml: unknown key "limit" (known: model`, true},
		{"negative count", "[limits]\nmax_depth = -3", ".baton/config.toml: limits.max_depth: expected a positive integer, got -3; ignored", true},
		{"scalar for a table", "limits = 3", ".baton/config.toml: limits: expected a table ([limits]), got 3; ignored", true},
		{"array of tables", "[[sessions]]\ncleanup = \"keep\"", ".baton/config.toml: sessions: expected a table ([sessions]), got an array of tables; ignored", true},
		{"bad rule", "[permissions]\ndeny = [\"rm\"]", `.baton/config.toml: permissions.deny: expected a list of rules`, true},
		{"bad server", "[mcp.servers.x]\nurl = \"ftp://x\"", `.baton/config.toml: mcp.servers.x: url "ftp://x": expected an http(s) URL; ignored`, true},
		{"bad server key", "[mcp.servers.x]\ncommand = \"x\"\nshell = true", `.baton/config.toml: mcp.servers.x: shell: unknown key "shell"`, true},
		{"bad aliases", "[models]\naliases = 3", ".baton/config.toml: ignored [models.aliases]: a repository must not choose", true},
		{"syntax", "model = ", ".baton/config.toml: line 2: ", false},
		{"many wrong keys", "[limits]\nk0 = 1\nk1 = 1\nk2 = 1\nk3 = 1\nk4 = 1\nk5 = 1", ".baton/config.toml: 1 more key ignored", true},
		{"every limit wrong", "[limits]\n" + func() string {
			var b strings.Builder
			for _, key := range tomlKeys(reflect.TypeFor[limitsFile]()) {
				fmt.Fprintf(&b, "%s = \"x\"\n", key)
			}
			return b.String()
		}(), fmt.Sprintf(".baton/config.toml: %d more keys ignored", len(tomlKeys(reflect.TypeFor[limitsFile]()))-maxKeyNotices), true},
		{"bad model entry", "[models.a]\ncontext_window = 5\n[models.b]\ncontext_window = \"x\"\n[models]\nc = 3",
			".baton/config.toml: models.c: expected a table ([models.c]), got 3; ignored", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newConfigWorld(t, "", "max_steps = 7\n"+tt.project)
			cfg, err := w.load(t, Overrides{}, nil)
			if err != nil {
				t.Fatalf("the project file kept baton from starting: %v", err)
			}
			notes := strings.Join(cfg.Notices, "\n")
			if !strings.Contains(notes, tt.notice) {
				t.Errorf("notices lack %q:\n%s", tt.notice, notes)
			}
			if got := cfg.Limits.MaxSteps == 7; got != tt.applies {
				t.Errorf("max_steps = 7 applied: %v, want %v", got, tt.applies)
			}
		})
	}
}

// TestNestedProjectConfigIsRefusedBeforeParsing is the 32 KB file that
// took more than 3 GB to parse, made small enough (2,000 nested inline
// tables, 8 KB) that without the bound this test fails in about a second
// on the memory it measures instead of exhausting the machine. With the
// bound the file is skipped with a notice before the TOML reader sees it.
func TestNestedProjectConfigIsRefusedBeforeParsing(t *testing.T) {
	const levels = 2000
	nested := "model = \"m\"\na = " + strings.Repeat("{b = ", levels) + "1" + strings.Repeat("}", levels) + "\n"
	w := newConfigWorld(t, "", nested)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cfg, err := w.load(t, Overrides{}, nil)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if used := after.TotalAlloc - before.TotalAlloc; used > 32<<20 {
		t.Errorf("loading the config allocated %d MB", used>>20)
	}
	want := ".baton/config.toml skipped: nested deeper than 16 levels (line 2)"
	if notes := strings.Join(cfg.Notices, "\n"); !strings.Contains(notes, want) {
		t.Errorf("notices lack %q:\n%s", want, notes)
	}
	if cfg.Model == "m" {
		t.Error("a key of the skipped file applied")
	}
}
