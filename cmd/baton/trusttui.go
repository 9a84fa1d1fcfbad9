package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/seed-e4e525a6/baton/engine/trust"
)

// trustFromTUI is /trust: it records the workspace on the trust list as
// `baton trust` does, and lets the folder's MCP servers still waiting
// start without a card, as the card's t does. The project's other
// settings were read when baton started, so they apply from its next
// start. Nil when there is no trust list to record it in.
func trustFromTUI(inv *invocation, servers *mcpRun) func() (string, error) {
	store, folder := inv.trust.Store, inv.trust.Path
	if store == nil {
		return nil
	}
	return func() (string, error) {
		if folder == "" {
			return "", errors.New("trust: the folder could not be resolved")
		}
		changed, err := store.Add(folder, time.Now())
		if err != nil {
			return "", err
		}
		if servers != nil {
			servers.trusted.Store(true)
		}
		if !changed || trust.IsBroad(folder, inv.env) {
			return trustMessage("trust", folder, changed, inv.env), nil
		}
		// The project's files were read as untrusted when baton started.
		return fmt.Sprintf("trusted: %s; its .baton/config.toml and agent files apply in full from baton's next start, "+
			"and its MCP servers start now without asking", folder), nil
	}
}
