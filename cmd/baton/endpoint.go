package main

import (
	"errors"
	"fmt"
)

// placeholderKey is sent when there is no key: local servers (Ollama,
// llama.cpp, vLLM, LM Studio) need none, but go-openai always sends an
// Authorization header and some servers reject an empty bearer token.
const placeholderKey = "baton-no-key"

// errNotConfigured explains what to set when no endpoint is configured.
var errNotConfigured = errors.New(`no model endpoint configured; set one of:
  OPENAI_API_KEY=sk-...                        to use OpenAI
  OPENAI_BASE_URL=http://localhost:11434/v1    for any OpenAI-compatible server (a local one needs no key)
and optionally BATON_MODEL=<model> (default ` + defaultModel + `)`)

// endpoint is where the session's model requests go.
type endpoint struct {
	// demo selects the built-in scripted model instead of a network API.
	demo    bool
	baseURL string
	apiKey  string
	// notices are shown to the person (TUI status or stderr).
	notices []string
}

// chooseEndpoint decides between a real endpoint and the offline demo:
// --demo asks for the demo; with neither a key nor a base URL the TUI
// shows the demo, while headless runs cannot and fail with what to set.
func chooseEndpoint(c config, headless, demo bool) (endpoint, error) {
	if demo {
		return endpoint{demo: true}, nil
	}
	if c.APIKey == "" && c.BaseURL == "" {
		if headless {
			return endpoint{}, errNotConfigured
		}
		return endpoint{demo: true}, nil
	}
	ep := endpoint{baseURL: c.BaseURL, apiKey: c.APIKey}
	if c.baseURLFrom == fromProject && ep.apiKey != "" {
		// A cloned repository must not be able to send the person's key
		// to a server of its choosing.
		ep.apiKey = ""
		ep.notices = append(ep.notices, fmt.Sprintf(
			"%s sets base_url %s; your API key is not sent to an endpoint chosen by a project file "+
				"(set OPENAI_BASE_URL or base_url in your user config to trust it)", projectConfigName, redactURL(c.BaseURL)))
	}
	if ep.apiKey == "" {
		ep.apiKey = placeholderKey
	}
	return ep, nil
}
