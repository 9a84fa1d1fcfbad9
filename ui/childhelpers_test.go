package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
)

// t0 is when the tests' children are requested; the driver's clock reads
// t0+3s, so elapsed times are the same on every run.
var t0 = time.Date(2025, 3, 14, 9, 26, 0, 0, time.UTC)

// kid is a child of the main agent in a test.
type kid struct{ id, typ, desc string }

// The three children of the tests, as a demo delegates them.
var (
	explore = kid{"explore-1", "Explore", "map the project layout"}
	review  = kid{"review-2", "Review", "look for TODOs"}
	finder  = kid{"explore-3", "Explore", "find entry points"}
)

// meta tags an event of the child, d after t0, the way the engine does:
// its number in the turn (the tests' ids end with it) and the task call
// that started it.
func (k kid) meta(d time.Duration) event.Meta {
	n, _ := strconv.Atoi(k.id[strings.LastIndexByte(k.id, '-')+1:])
	return event.Meta{Agent: event.AgentID(k.id), Parent: event.MainAgent, Number: n, TaskCall: "call-" + k.id,
		AgentType: k.typ, Description: k.desc, Time: t0.Add(d)}
}

// taskCall is the main agent's task call that starts the child.
func (k kid) taskCall() event.ToolStarted {
	return event.ToolStarted{Meta: mainMeta, CallID: "call-" + k.id, Name: child.TaskToolName,
		Args:  fmt.Sprintf(`{"description":%q,"prompt":"Prompt for %s.","subagent_type":%q}`, k.desc, k.desc, strings.ToLower(k.typ)),
		Title: fmt.Sprintf("task [%s] %s", k.typ, k.desc)}
}

// request is the child's delegation question.
func (k kid) request() *event.ApprovalRequest {
	return &event.ApprovalRequest{ID: "ap-" + k.id, Kind: event.ApproveDelegation, CallID: "call-" + k.id, Delegation: &event.DelegationPreview{
		AgentType: k.typ, Description: k.desc, Prompt: "Prompt for " + k.desc + ".\n\nReport paths and line numbers.",
		Tools: []string{"read_file", "grep", "glob"}, Model: "gpt-4.1-mini", MaxSteps: 15, Timeout: 2 * time.Minute,
		EstimatedTokens: 1200, EstimatedCost: 0.0005, CostKnown: true,
	}}
}

// delegate shows the task call and the child's delegation card; the
// answer arrives on the returned channel.
func (d *driver) delegate(k kid) chan event.Answer {
	d.t.Helper()
	req := k.request()
	answers := newRequest(d.t, req)
	d.emit(k.taskCall(), event.ApprovalRequested{Meta: k.meta(0), Request: req})
	return answers
}

// started is the child starting its loop.
func (k kid) started() event.AgentStarted {
	return event.AgentStarted{Meta: k.meta(time.Second), Prompt: "Prompt for " + k.desc + ".", Model: "gpt-4.1-mini",
		Tools: []string{"read_file", "grep", "glob"}, MaxSteps: 15, Timeout: 2 * time.Minute, Transcript: "/state/s1/" + k.id + ".jsonl",
		Sandbox: "workspace-write · network off"}
}

// working is the child at work: a tool call done, another running, and
// text streaming.
func (k kid) working() []event.Event {
	m := k.meta(2 * time.Second)
	return []event.Event{
		event.StepStarted{Meta: m, Step: 2, Max: 15},
		event.ToolStarted{Meta: m, CallID: k.id + "-a", Name: "grep", Title: "grep -n TODO " + k.id},
		event.ToolFinished{Meta: m, CallID: k.id + "-a", Name: "grep", Summary: "7 matches", Output: "a.go:3: TODO\n"},
		event.UsageReported{Meta: m, Total: event.Usage{PromptTokens: 1100, CompletionTokens: 134, TotalTokens: 1234, Cost: 0.0021, CostKnown: true, Requests: 2}},
		event.ToolStarted{Meta: m, CallID: k.id + "-b", Name: "read_file", Title: "read_file " + k.id + ".go"},
		event.TextDelta{Meta: m, Text: "Reading the files of " + k.desc},
	}
}

// spawn runs a child without a card (as in yolo): the task call, its
// start and some work.
func (d *driver) spawn(k kid) {
	d.t.Helper()
	d.emit(append([]event.Event{k.taskCall(), k.started()}, k.working()...)...)
}

// finish ends the child with status, then the task call returns.
func (d *driver) finish(k kid, status event.Status, reason string) {
	d.t.Helper()
	stats := event.Stats{ToolCalls: 8, Steps: 4, Duration: 5100 * time.Millisecond,
		Usage: event.Usage{TotalTokens: 3200, PromptTokens: 3000, CompletionTokens: 200, Cost: 0.004, CostKnown: true, Requests: 4}}
	d.emit(
		event.AgentFinished{Meta: k.meta(6 * time.Second), Status: status, Reason: reason, Stats: stats, Text: "found it", Result: "found it"},
		event.ToolFinished{Meta: mainMeta, CallID: "call-" + k.id, Name: child.TaskToolName, Summary: string(status), Output: "Found it in " + k.id + ".go"},
	)
}

// stripped is lines drawn with styles as plain text, trailing spaces
// trimmed.
func stripped(s string) string {
	lines := strings.Split(ansi.Strip(s), "\n")
	for i, line := range lines {
		lines[i] = strings.TrimRight(line, " ")
	}
	return strings.Join(lines, "\n")
}
