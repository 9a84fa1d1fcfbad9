package config

import (
	"maps"
	"strings"
	"testing"
)

func TestConfigModelAliases(t *testing.T) {
	const user = `
[models.aliases]
sonnet = "anthropic/claude-sonnet-4.5"
"anthropic/claude-opus-4-20250514" = "anthropic/claude-opus-4.1"
[models."local/qwen"]
context_window = 32768
`
	w := newConfigWorld(t, user, "")
	cfg, err := w.load(t, Overrides{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"sonnet": "anthropic/claude-sonnet-4.5", "anthropic/claude-opus-4-20250514": "anthropic/claude-opus-4.1"}
	if !maps.Equal(cfg.ModelAliases, want) {
		t.Errorf("aliases %v, want %v", cfg.ModelAliases, want)
	}
	if _, ok := cfg.Models["aliases"]; ok || cfg.Models["local/qwen"].ContextWindow != 32768 {
		t.Errorf("models %v: the aliases table is not a model, and the other tables stay", cfg.Models)
	}
}

func TestConfigModelAliasesErrors(t *testing.T) {
	tests := []struct{ name, user, project, want string }{
		{name: "not text", user: "[models.aliases]\nsonnet = 3", want: "models.aliases.sonnet: expected a model name, got 3"},
		{name: "empty", user: "[models.aliases]\nsonnet = \" \"", want: "models.aliases.sonnet: expected a model name"},
		{name: "not a table", user: "[models]\naliases = \"x\"", want: "models.aliases: expected a table ([models.aliases]) of model names"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newConfigWorld(t, tt.user, tt.project)
			_, err := w.load(t, Overrides{}, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
}
