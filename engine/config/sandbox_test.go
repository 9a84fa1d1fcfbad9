package config

import (
	"slices"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/sandbox"
)

// TestSandboxConfig: the user config and --no-sandbox may switch the
// sandbox off; a project may narrow it but never switch it off or widen
// it, and --yolo leaves it on.
func TestSandboxConfig(t *testing.T) {
	w := newConfigWorld(t, "[sandbox]\nmode = \"off\"\nwritable = [\"~/scratch\"]\nallow_sockets = [\"/run/user/1000/bus\"]\nnetwork = \"off\"\n", "")
	cfg, err := w.load(t, Overrides{}, nil)
	if err != nil || cfg.Sandbox.Mode != sandbox.Off || cfg.Sandbox.Network != "off" || cfg.Sandbox.Writable[0] != "~/scratch" ||
		!slices.Equal(cfg.Sandbox.AllowSockets, []string{"/run/user/1000/bus"}) {
		t.Fatalf("user [sandbox]: %+v, %v", cfg.Sandbox, err)
	}
	w = newConfigWorld(t, "", "[sandbox]\nmode = \"read-only\"\nnetwork = \"off\"\n")
	if cfg, err = w.load(t, Overrides{}, nil); err != nil || cfg.Sandbox.Mode != sandbox.ReadOnly {
		t.Fatalf("project read-only: %+v, %v", cfg.Sandbox, err)
	}
	w = newConfigWorld(t, "[sandbox]\nmode = \"read-only\"\n", "[sandbox]\nmode = \"workspace-write\"\n")
	if cfg, err = w.load(t, Overrides{}, nil); err != nil || cfg.Sandbox.Mode != sandbox.ReadOnly {
		t.Fatalf("a project widened read-only: %+v, %v", cfg.Sandbox, err)
	}
	w = newConfigWorld(t, "[sandbox]\nmode = \"sometimes\"\n", "")
	if _, err := w.load(t, Overrides{}, nil); err == nil || !strings.Contains(err.Error(), `sandbox.mode: expected "workspace-write", "read-only" or "off"`) {
		t.Errorf("bad mode: %v", err)
	}
	w = newConfigWorld(t, "", "")
	if cfg, _ = w.load(t, Overrides{Yolo: ptr(true)}, nil); cfg.Sandbox.Mode == sandbox.Off {
		t.Error("--yolo switched the sandbox off")
	}
	if cfg, _ = w.load(t, Overrides{NoSandbox: true}, nil); cfg.Sandbox.Mode != sandbox.Off || cfg.Sandbox.Reason != "--no-sandbox" {
		t.Errorf("--no-sandbox: %+v", cfg.Sandbox)
	}
	p := SandboxSettings{Writable: []string{"~/scratch"}, AllowSockets: []string{"~/.tmux.sock"}}.Policy(map[string]string{"HOME": "/h", "XDG_STATE_HOME": "/st"}, "/ws")
	if !slices.Contains(p.ExtraWritable, "/h/scratch") || !slices.Equal(p.AllowSockets, []string{"/h/.tmux.sock"}) || !slices.Contains(p.Hidden, "/h/.config/baton") ||
		!slices.Contains(p.Hidden, "/st/baton") || !slices.Contains(p.Hidden, "/h/.ssh") || !p.Network {
		t.Errorf("resolved policy: %+v", p)
	}
}
