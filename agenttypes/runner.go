package agenttypes

import "strings"

// The runners an agent file may name: where its children's loops run.
const (
	// RunnerLocal runs each child in baton's own process.
	RunnerLocal = "local"
	// RunnerProcess runs each child in a baton child process of its own.
	RunnerProcess = "process"
	// RunnerContainer runs each child's process in a container.
	RunnerContainer = "container"
	// RunnerKubernetes runs each child in a Job on a Kubernetes cluster.
	RunnerKubernetes = "kubernetes"
	// RunnerACP runs each child as another agent speaking the Agent
	// Client Protocol, the program the file's acp: names.
	RunnerACP = "acp"
)

// applyRunner reads runner: local, process, container, kubernetes or acp.
func applyRunner(p *fileParser, t *Type, e entry) error {
	s, _ := scalar(e.value)
	switch v := strings.ToLower(strings.TrimSpace(s)); v {
	case RunnerLocal, RunnerProcess, RunnerContainer, RunnerKubernetes, RunnerACP:
		t.Runner = v
	default:
		p.warn(e.line, "%s must be local, process, container, kubernetes or acp; ignored", e.key)
	}
	return nil
}
