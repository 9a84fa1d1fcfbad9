package engine

import "testing"

func TestMatchModel(t *testing.T) {
	openRouter := []string{"openai/gpt-4.1", "anthropic/claude-3.5-sonnet", "anthropic/claude-sonnet-4", "anthropic/claude-sonnet-4.5",
		"anthropic/claude-sonnet-4.5:thinking", "anthropic/claude-opus-4.1", "anthropic/claude-3.5-haiku", "google/gemini-2.5-pro"}
	tests := []struct {
		name, want string
		served     []string
		aliases    map[string]string
		model      string
		changed    bool
	}{
		{"served as written", "anthropic/claude-sonnet-4", openRouter, map[string]string{"anthropic/claude-sonnet-4": "x"}, "anthropic/claude-sonnet-4", false},
		{"claude alias to newest of family", "sonnet", openRouter, nil, "anthropic/claude-sonnet-4.5", true},
		{"opus", "opus", openRouter, nil, "anthropic/claude-opus-4.1", true},
		{"haiku", "Haiku", openRouter, nil, "anthropic/claude-3.5-haiku", true},
		{"person's alias first", "sonnet", openRouter, map[string]string{"SONNET": "google/gemini-2.5-pro"}, "google/gemini-2.5-pro", true},
		{"dated claude id", "claude-sonnet-4-20250514", openRouter, nil, "anthropic/claude-sonnet-4", true},
		{"claude id with dots", "claude-3-5-haiku-latest", openRouter, nil, "anthropic/claude-3.5-haiku", true},
		{"opencode provider id", "openai/gpt-4.1", []string{"gpt-4.1-mini", "gpt-4.1"}, nil, "gpt-4.1", true},
		{"opencode id on a gateway with another prefix", "github-copilot/gpt-4.1", openRouter, nil, "openai/gpt-4.1", true},
		{"nothing matches", "model_api/muse-spark-1.3-contributor", openRouter, nil, "sub-model", true},
		{"family absent", "opus", []string{"gpt-4.1"}, nil, "sub-model", true},
		{"no list: as written", "sonnet", nil, nil, "sonnet", false},
		{"no list: alias still applies", "sonnet", nil, map[string]string{"sonnet": "gpt-4.1"}, "gpt-4.1", true},
		{"not a near miss", "gpt-4", []string{"gpt-4.1", "gpt-4o"}, nil, "sub-model", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := matchModel(tt.want, tt.served, tt.aliases, "sub-model")
			if got.model != tt.model || (got.why != "") != tt.changed {
				t.Errorf("matchModel(%q) = %+v, want %q (changed %v)", tt.want, got, tt.model, tt.changed)
			}
		})
	}
}
