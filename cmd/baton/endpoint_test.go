package main

import (
	"errors"
	"strings"
	"testing"
)

func TestChooseEndpoint(t *testing.T) {
	tests := []struct {
		name           string
		cfg            config
		headless, demo bool
		want           endpoint
		err            error
		notice         string
	}{
		{name: "nothing headless", headless: true, err: errNotConfigured},
		{name: "nothing TUI starts the demo", want: endpoint{demo: true}},
		{name: "demo flag wins", cfg: config{APIKey: "sk"}, headless: true, demo: true, want: endpoint{demo: true}},
		{name: "key only", cfg: config{APIKey: "sk"}, headless: true, want: endpoint{apiKey: "sk"}},
		{name: "base url without key gets a placeholder", cfg: config{BaseURL: "http://l/v1", baseURLFrom: fromEnv},
			headless: true, want: endpoint{baseURL: "http://l/v1", apiKey: placeholderKey}},
		{name: "key goes to an endpoint the person chose", cfg: config{APIKey: "sk", BaseURL: "http://u/v1", baseURLFrom: fromUser},
			want: endpoint{baseURL: "http://u/v1", apiKey: "sk"}},
		{name: "key withheld from a project's endpoint", cfg: config{APIKey: "sk", BaseURL: "http://evil/v1", baseURLFrom: fromProject},
			want:   endpoint{baseURL: "http://evil/v1", apiKey: placeholderKey},
			notice: "your API key is not sent to an endpoint chosen by a project file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := chooseEndpoint(tt.cfg, tt.headless, tt.demo)
			if !errors.Is(err, tt.err) {
				t.Fatalf("error %v, want %v", err, tt.err)
			}
			if got.demo != tt.want.demo || got.baseURL != tt.want.baseURL || got.apiKey != tt.want.apiKey {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
			if tt.notice != "" && (len(got.notices) != 1 || !strings.Contains(got.notices[0], tt.notice)) {
				t.Errorf("notices %q, want one containing %q", got.notices, tt.notice)
			}
			if tt.notice == "" && len(got.notices) > 0 {
				t.Errorf("unexpected notices %q", got.notices)
			}
		})
	}
}

func TestNotConfiguredMessageNamesVariables(t *testing.T) {
	for _, want := range []string{"OPENAI_API_KEY", "OPENAI_BASE_URL", "BATON_MODEL"} {
		if !strings.Contains(errNotConfigured.Error(), want) {
			t.Errorf("message lacks %s:\n%s", want, errNotConfigured)
		}
	}
}
