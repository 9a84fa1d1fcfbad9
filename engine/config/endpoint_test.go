package config

import (
	"errors"
	"strings"
	"testing"
)

func TestChooseEndpoint(t *testing.T) {
	tests := []struct {
		name           string
		cfg            Config
		headless, demo bool
		want           Endpoint
		err            error
		notice         string
	}{
		{name: "nothing headless", headless: true, err: ErrNotConfigured},
		{name: "nothing TUI starts the demo", want: Endpoint{Demo: true}},
		{name: "demo flag wins", cfg: Config{APIKey: "sk"}, headless: true, demo: true, want: Endpoint{Demo: true}},
		{name: "key only", cfg: Config{APIKey: "sk"}, headless: true, want: Endpoint{APIKey: "sk"}},
		{name: "base url without key gets a placeholder", cfg: Config{BaseURL: "http://l/v1", baseURLFrom: fromEnv},
			headless: true, want: Endpoint{BaseURL: "http://l/v1", APIKey: placeholderKey}},
		{name: "key goes to an endpoint the person chose", cfg: Config{APIKey: "sk", BaseURL: "http://u/v1", baseURLFrom: fromUser},
			want: Endpoint{BaseURL: "http://u/v1", APIKey: "sk"}},
		{name: "key withheld from a project's endpoint", cfg: Config{APIKey: "sk", BaseURL: "http://evil/v1", baseURLFrom: fromProject},
			want:   Endpoint{BaseURL: "http://evil/v1", APIKey: placeholderKey},
			notice: "your API key is not sent to an endpoint chosen by a project file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.cfg.Endpoint(tt.headless, tt.demo)
			if !errors.Is(err, tt.err) {
				t.Fatalf("error %v, want %v", err, tt.err)
			}
			if got.Demo != tt.want.Demo || got.BaseURL != tt.want.BaseURL || got.APIKey != tt.want.APIKey {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
			if tt.notice != "" && (len(got.Notices) != 1 || !strings.Contains(got.Notices[0], tt.notice)) {
				t.Errorf("notices %q, want one containing %q", got.Notices, tt.notice)
			}
			if tt.notice == "" && len(got.Notices) > 0 {
				t.Errorf("unexpected notices %q", got.Notices)
			}
		})
	}
}

func TestNotConfiguredMessageNamesVariables(t *testing.T) {
	for _, want := range []string{"OPENAI_API_KEY", "OPENAI_BASE_URL", "BATON_MODEL"} {
		if !strings.Contains(ErrNotConfigured.Error(), want) {
			t.Errorf("message lacks %s:\n%s", want, ErrNotConfigured)
		}
	}
}
