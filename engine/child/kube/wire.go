package kube

import (
	"bytes"
	"encoding/json"
	"time"
)

// Report is what baton-kube and the pod add to the child protocol's
// stream, each on a line of its own ({"kube": {...}}), for the runner
// rather than for the child's loop.
type Report struct {
	// Where the child runs once its pod has started ("k8s
	// <namespace>/<job>"), and how long placing it took.
	Where   string        `json:"where,omitempty"`
	Latency time.Duration `json:"latency,omitempty"`
	// Notice is something the person should know about the placing (a
	// NetworkPolicy the cluster would not take).
	Notice string `json:"notice,omitempty"`
	// Bundle is the child's result: a git bundle of worktree.ResultRef,
	// the pod's final line when the child changed files.
	Bundle []byte `json:"bundle,omitempty"`
}

// reportLine is one such line.
type reportLine struct {
	Kube *Report `json:"kube"`
}

// reportPrefix starts every report line, and no line of the child
// protocol.
var reportPrefix = []byte(`{"kube":`)

// MarshalReport is r as one line, its newline included.
func MarshalReport(r Report) []byte {
	data, _ := json.Marshal(reportLine{Kube: &r}) // a Report always marshals
	return append(data, '\n')
}

// parseReport returns the report a line holds, or false when it is a
// line of the child protocol.
func parseReport(line []byte) (Report, bool) {
	if !bytes.HasPrefix(line, reportPrefix) {
		return Report{}, false
	}
	var l reportLine
	if json.Unmarshal(line, &l) != nil || l.Kube == nil {
		return Report{}, false
	}
	return *l.Kube, true
}
