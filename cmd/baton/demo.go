package main

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/seed-e4e525a6/baton/engine/demo"
)

// demoKey is the key sent to the demo server, which checks none.
const demoKey = "demo"

// startDemo serves the offline demo model on loopback and points inv at
// it. The returned stop shuts the server down.
func startDemo(ctx context.Context, inv *invocation) (func(), error) {
	srv, err := demo.Start(ctx)
	if err != nil {
		return nil, fmt.Errorf("start the offline demo: %w", err)
	}
	inv.endpoint.BaseURL, inv.endpoint.APIKey = srv.URL, demoKey
	inv.cfg.Model, inv.cfg.SubagentModel = demo.Model, ""
	inv.endpoint.Notices = append(inv.endpoint.Notices,
		"offline demo: a scripted model answers; set OPENAI_API_KEY (and optionally OPENAI_BASE_URL, BATON_MODEL) to use a real one")
	return func() {
		if err := srv.Close(); err != nil {
			slog.Debug("stop demo server", "err", err)
		}
	}, nil
}
