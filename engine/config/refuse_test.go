package config

import (
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/sandbox"
)

// TestProjectKeysNoRepositoryMaySetAreIgnored: a project file holding a
// key no repository may set, trusted or not, still lets baton start; the
// key has no effect and a notice names the file and the key.
func TestProjectKeysNoRepositoryMaySetAreIgnored(t *testing.T) {
	tests := []struct {
		name, project, key string
		applied            func(Config) bool
	}{
		{"api key", `api_key = "sk-from-the-repo"`, "api_key", func(c Config) bool { return c.APIKey == "sk-from-the-repo" }},
		{"yolo", `yolo = true`, "yolo", func(c Config) bool { return c.Yolo }},
		{"allow", `allow = ["run_command"]`, "allow", func(c Config) bool { return len(c.Allow) > 0 }},
		{"web_fetch", "[web_fetch]\nallow_private = true", "web_fetch.allow_private", func(c Config) bool { return c.WebFetch.AllowPrivate }},
		{"aliases", "[models.aliases]\nsonnet = \"evil\"", "[models.aliases]", func(c Config) bool { return c.ModelAliases["sonnet"] != "" }},
		{"sandbox off", "[sandbox]\nmode = \"off\"", `sandbox.mode = "off"`, func(c Config) bool { return c.Sandbox.Mode == sandbox.Off }},
		{"sandbox writable", "[sandbox]\nwritable = [\"/etc\"]", "sandbox.writable", func(c Config) bool { return len(c.Sandbox.Writable) > 0 }},
		{"sandbox readable", "[sandbox]\nreadable = [\"~/.ssh\"]", "sandbox.readable", func(c Config) bool { return len(c.Sandbox.Readable) > 0 }},
		{"sandbox allow_sockets", "[sandbox]\nallow_sockets = [\"/run/user/1000/bus\"]", "sandbox.allow_sockets", func(c Config) bool { return len(c.Sandbox.AllowSockets) > 0 }},
		{"sandbox network", "[sandbox]\nnetwork = \"on\"", `sandbox.network = "on"`, func(c Config) bool { return c.Sandbox.Network == "on" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, trusted := range []bool{false, true} {
				w := newConfigWorld(t, "", tt.project)
				cfg, err := Load(Sources{Env: map[string]string{"HOME": w.home}, Workspace: w.workspace, Trusted: trusted})
				if err != nil {
					t.Fatalf("trusted %v: the run stopped: %v", trusted, err)
				}
				if tt.applied(cfg) {
					t.Errorf("trusted %v: the project's %s took effect", trusted, tt.key)
				}
				want := ".baton/config.toml: ignored " + tt.key
				if !strings.Contains(strings.Join(cfg.Notices, "\n"), want) {
					t.Errorf("trusted %v: notices %q lack %q", trusted, cfg.Notices, want)
				}
			}
		})
	}
}

// TestContextFileBytesReachesTheEngine: [limits] context_file_bytes sets
// the context-file cap, its maximum is refused, and an untrusted project
// may lower it but not raise it.
func TestContextFileBytesReachesTheEngine(t *testing.T) {
	cfg, err := newConfigWorld(t, "[limits]\ncontext_file_bytes = 65536\n", "").load(t, Overrides{}, nil)
	if err != nil || cfg.Limits.ContextFileBytes != 65536 {
		t.Fatalf("user cap: %v %d", err, cfg.Limits.ContextFileBytes)
	}
	if _, err := newConfigWorld(t, "[limits]\ncontext_file_bytes = 99999999\n", "").load(t, Overrides{}, nil); err == nil ||
		!strings.Contains(err.Error(), "limits.context_file_bytes: expected at most 4194304") {
		t.Fatalf("above the maximum: %v", err)
	}
	for project, want := range map[string]int{"[limits]\ncontext_file_bytes = 1024\n": 1024, "[limits]\ncontext_file_bytes = 1048576\n": 0} {
		w := newConfigWorld(t, "", project)
		cfg, err := Load(Sources{Env: map[string]string{"HOME": w.home}, Workspace: w.workspace})
		if err != nil || cfg.Limits.ContextFileBytes != want {
			t.Errorf("untrusted %q: %v, cap %d, want %d", project, err, cfg.Limits.ContextFileBytes, want)
		}
	}
}
