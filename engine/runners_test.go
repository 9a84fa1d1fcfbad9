package engine

import (
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/llm"
)

// A runner the configuration names but this session cannot offer is
// said before the first turn, with the reason: a container runner never
// gives way to this machine (its children fail instead), another gives
// way to the local runner. A runner setting that cannot work (a container
// engine off loopback, which would carry the API key in the clear; an
// unknown approvals mode) is the reason given, not a silent fallback.
func TestUnavailableRunnersAreSaid(t *testing.T) {
	for _, c := range []struct {
		name   string
		mutate func(*Config)
		want   string
	}{
		{"container without an image", func(c *Config) { c.Runner = child.RunnerContainer },
			"sub-agents run in containers, and the container runner is not available here ([runner.container] names no image): they will fail rather than run on this machine"},
		{"container engine off loopback", func(c *Config) {
			c.Runner, c.Container.Image, c.Container.Host = child.RunnerContainer, "baton-test:latest", "tcp://192.0.2.1:2375"
		}, `the container runner is not available here (container engine address "tcp://192.0.2.1:2375": baton speaks plain HTTP to the engine, and the API key goes through it`},
		{"kubernetes with an unknown approvals mode", func(c *Config) {
			c.Runner, c.Kubernetes.Image, c.Kubernetes.Approvals = child.RunnerKubernetes, "baton-test:latest", "sometimes"
		}, `sub-agents run on the local runner: the kubernetes runner is not available here ([runner.kubernetes] approvals "sometimes": want "ask" or "allow")`},
		{"process without an endpoint", func(c *Config) { c.Runner, c.Endpoint = child.RunnerProcess, llm.Config{} },
			"sub-agents run on the local runner: the process runner is not available here (the session has no endpoint configuration a child process could use)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, _ := newTestSession(t, delegatingScript(false), c.mutate)
			contains(t, "start notes", strings.Join(s.StartNotes(), "\n"), c.want)
		})
	}
}

// A runner whose settings can work is offered without a note, before
// its engine or cluster is reached (a child that cannot start there
// fails saying why, as the runners' own tests check): the notes above
// name only what is really missing.
func TestConfiguredRunnersAreOffered(t *testing.T) {
	for _, runner := range []string{child.RunnerContainer, child.RunnerKubernetes} {
		t.Run(runner, func(t *testing.T) {
			s, _ := newTestSession(t, delegatingScript(false), func(c *Config) {
				c.Runner, c.Container.Image, c.Kubernetes.Image = runner, "baton-test:latest", "baton-test:latest"
				c.Container.Host = "unix://" + t.TempDir() + "/no-engine.sock"
			})
			if notes := strings.Join(s.StartNotes(), "\n"); strings.Contains(notes, "not available") {
				t.Fatalf("the %s runner was not offered: %s", runner, notes)
			}
		})
	}
}
