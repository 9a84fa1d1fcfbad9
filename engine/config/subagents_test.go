package config

import "testing"

func TestWakeOnResultConfig(t *testing.T) {
	tests := []struct {
		name, user, project string
		noWake              bool
	}{
		{"default wakes", "", "", false},
		{"user turns it off", "[subagents]\nwake_on_result = false\n", "", true},
		{"project may turn it off", "", "[subagents]\nwake_on_result = false\n", true},
		{"project may not turn it back on", "[subagents]\nwake_on_result = false\n", "[subagents]\nwake_on_result = true\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := newConfigWorld(t, tt.user, tt.project).load(t, Overrides{}, nil)
			if err != nil || cfg.NoWakeOnResult != tt.noWake {
				t.Fatalf("NoWakeOnResult %v (err %v), want %v", cfg.NoWakeOnResult, err, tt.noWake)
			}
		})
	}
	if _, err := newConfigWorld(t, "[subagents]\nwake_on_result = 3\n", "").load(t, Overrides{}, nil); err == nil {
		t.Fatal("wake_on_result = 3 was accepted")
	}
}
