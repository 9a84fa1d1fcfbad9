package config

import (
	"errors"
	"fmt"
)

// placeholderKey is sent when there is no key: local servers (Ollama,
// llama.cpp, vLLM, LM Studio) need none, but go-openai always sends an
// Authorization header and some servers reject an empty bearer token.
const placeholderKey = "baton-no-key"

// ErrNotConfigured explains what to set when no endpoint is configured.
var ErrNotConfigured = errors.New(`no model endpoint configured; set one of:
  OPENAI_API_KEY=sk-...                        to use OpenAI
  OPENAI_BASE_URL=http://localhost:11434/v1    for any OpenAI-compatible server (a local one needs no key)
and optionally BATON_MODEL=<model> (default ` + DefaultModel + `)`)

// Endpoint is where the session's model requests go.
type Endpoint struct {
	// Demo selects the built-in scripted model instead of a network API.
	Demo    bool
	BaseURL string
	// APIKey is the key sent, a placeholder when there is none.
	APIKey string
	// Notices are shown to the person (TUI status or stderr).
	Notices []string
}

// Endpoint decides between a real endpoint and the offline demo: demo
// (--demo) asks for the demo; with neither a key nor a base URL the TUI
// shows the demo, while headless runs cannot and fail with what to set.
// The key never goes to an endpoint a project file chose.
func (c Config) Endpoint(headless, demo bool) (Endpoint, error) {
	if demo {
		return Endpoint{Demo: true}, nil
	}
	if c.APIKey == "" && c.BaseURL == "" {
		if headless {
			return Endpoint{}, ErrNotConfigured
		}
		return Endpoint{Demo: true}, nil
	}
	ep := Endpoint{BaseURL: c.BaseURL, APIKey: c.APIKey}
	if c.baseURLFrom == fromProject && ep.APIKey != "" {
		// A cloned repository must not be able to send the person's key
		// to a server of its choosing.
		ep.APIKey = ""
		ep.Notices = append(ep.Notices, fmt.Sprintf(
			"%s sets base_url %s; your API key is not sent to an endpoint chosen by a project file "+
				"(set OPENAI_BASE_URL or base_url in your user config to trust it)", ProjectFile, RedactURL(c.BaseURL)))
	}
	if ep.APIKey == "" {
		ep.APIKey = placeholderKey
	}
	return ep, nil
}
