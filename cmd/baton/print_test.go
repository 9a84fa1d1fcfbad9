package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine/event"
)

var (
	mainMeta    = event.Meta{Agent: event.MainAgent}
	exploreMeta = event.Meta{Agent: "explore-1", Parent: event.MainAgent, AgentType: "Explore", Description: "find auth code"}
	reviewMeta  = event.Meta{Agent: "review-2", Parent: event.MainAgent, AgentType: "Review", Description: "check expiry"}
)

// sampleTurn is a turn with a tool call, a failed call, two children (one
// denied), a notice and the end of the turn.
func sampleTurn() []event.Event {
	usage := event.Usage{PromptTokens: 1200, CompletionTokens: 300, TotalTokens: 1500, Cost: 0.0031, CostKnown: true, Requests: 3}
	return []event.Event{
		event.TurnStarted{Meta: mainMeta, Prompt: "find auth"},
		event.StepStarted{Meta: mainMeta, Step: 1, Max: 50},
		event.ToolStarted{Meta: mainMeta, CallID: "c1", Name: "read_file", Args: `{"path":"engine/loop.go"}`, Title: "read_file engine/loop.go"},
		event.ToolFinished{Meta: mainMeta, CallID: "c1", Name: "read_file", Summary: "120 lines", Output: "..."},
		event.ToolStarted{Meta: mainMeta, CallID: "c2", Name: "read_file", Title: "read_file nope.go"},
		event.ToolFinished{Meta: mainMeta, CallID: "c2", Name: "read_file", Output: "open nope.go:\nno such file", IsError: true},
		event.AgentQueued{Meta: exploreMeta, Position: 1},
		event.AgentStarted{Meta: exploreMeta, Prompt: "find it", Model: "gpt-4.1-mini", Tools: []string{"grep"}, MaxSteps: 15},
		event.ToolStarted{Meta: exploreMeta, CallID: "c1", Name: "grep", Title: "grep session"},
		event.ToolFinished{Meta: exploreMeta, CallID: "c1", Name: "grep", Summary: "4 matches"},
		event.AgentFinished{Meta: exploreMeta, Status: event.StatusCompleted,
			Stats: event.Stats{ToolCalls: 8, Duration: 5100 * time.Millisecond}, Text: "found", Result: "found"},
		event.AgentFinished{Meta: reviewMeta, Status: event.StatusDenied, Reason: "not now"},
		event.Notice{Meta: mainMeta, Text: "falling back to gpt-4.1"},
		event.TextDelta{Meta: mainMeta, Text: "Auth lives in "},
		event.TextDelta{Meta: mainMeta, Text: "internal/auth."},
		event.UsageReported{Meta: mainMeta, Request: usage, Total: usage},
		event.TurnEnded{Meta: mainMeta, Status: event.StatusCompleted, Text: "Auth lives in internal/auth.", Usage: usage},
	}
}

func sampleOutcome() outcome {
	ended := sampleTurn()[len(sampleTurn())-1].(event.TurnEnded)
	return outcome{Status: ended.Status, Text: ended.Text, Usage: ended.Usage, Duration: 2500 * time.Millisecond, Model: "gpt-4.1", Sandbox: "workspace-write"}
}

func play(t *testing.T, format string, events []event.Event, o outcome) (stdout, stderr string) {
	t.Helper()
	var out, errw bytes.Buffer
	p := newPrinter(format, &out, &errw, printOptions{})
	for _, ev := range events {
		p.event(ev)
	}
	if err := p.finish(o); err != nil {
		t.Fatal(err)
	}
	return out.String(), errw.String()
}

func TestTextPrinter(t *testing.T) {
	stdout, stderr := play(t, formatText, sampleTurn(), sampleOutcome())
	if want := "Auth lives in internal/auth.\n"; stdout != want {
		t.Errorf("stdout = %q, want %q", stdout, want)
	}
	const want = `⏺ read_file engine/loop.go (120 lines)
✗ read_file nope.go (error: open nope.go: no such file)
[Explore] find auth code ... 0 tools, 0.0s
[Explore] find auth code ... 1 tool, 0.0s · ⏺ grep session (4 matches)
[Explore] find auth code - done (8 tools, 5.1s)
[Review] check expiry - denied: not now
note: falling back to gpt-4.1
`
	if stderr != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr, want)
	}
}

func TestTextPrinterFailures(t *testing.T) {
	tests := []struct {
		name   string
		events []event.Event
		o      outcome
		want   string
	}{
		{"provider error", []event.Event{event.ErrorOccurred{Meta: mainMeta, Message: "401 unauthorized:\ninvalid api key"}},
			outcome{Status: event.StatusFailed, Err: "401 unauthorized: invalid api key"}, "error: 401 unauthorized: invalid api key\n"},
		{"step limit", nil, outcome{Status: event.StatusMaxSteps, Text: "partial"},
			"baton: stopped at the step limit before the answer was complete\n"},
		{"interrupted", nil, outcome{Status: event.StatusInterrupted}, "baton: interrupted\n"},
		{"failed silently", nil, outcome{Status: event.StatusFailed}, "baton: the turn ended with status failed\n"},
		{"child timed out", []event.Event{event.AgentFinished{Meta: exploreMeta, Status: event.StatusTimedOut,
			Reason: "no answer in 120s", Stats: event.Stats{ToolCalls: 3, Duration: 120 * time.Second}}},
			outcome{Status: event.StatusCompleted},
			"[Explore] find auth code - timed out (3 tools, 120.0s): no answer in 120s\n"},
		{"child max steps", []event.Event{event.AgentFinished{Meta: exploreMeta, Status: event.StatusMaxSteps,
			Stats: event.Stats{ToolCalls: 15, Duration: time.Second}}},
			outcome{Status: event.StatusCompleted}, "[Explore] find auth code - max steps (15 tools, 1.0s)\n"},
		// One tool is "1 tool": the plural comes from event.Plural, the
		// one place display words are made.
		{"child with one tool", []event.Event{event.AgentFinished{Meta: exploreMeta, Status: event.StatusCompleted,
			Stats: event.Stats{ToolCalls: 1, Duration: time.Second}}},
			outcome{Status: event.StatusCompleted}, "[Explore] find auth code - done (1 tool, 1.0s)\n"},
		{"child error is not repeated", []event.Event{event.ErrorOccurred{Meta: exploreMeta, Message: "429"}},
			outcome{Status: event.StatusCompleted}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr := play(t, formatText, tt.events, tt.o)
			if stderr != tt.want {
				t.Errorf("stderr = %q, want %q", stderr, tt.want)
			}
		})
	}
}

// TestJSONPrinter: --output-format json is Claude Code's result message
// with baton's fields after it: the status, a cost that is null when
// unknown, the sandbox and what the run left.
func TestJSONPrinter(t *testing.T) {
	stdout, stderr := play(t, formatJSON, sampleTurn(), sampleOutcome())
	var res claudeResult
	if err := json.Unmarshal([]byte(stdout), &res); err != nil || stderr != "" || strings.Count(stdout, "\n") != 1 {
		t.Fatalf("stdout %s (%v), stderr %q", stdout, err, stderr)
	}
	if res.Type != "result" || res.Subtype != "success" || res.IsError || res.Result != "Auth lives in internal/auth." ||
		res.NumTurns != 1 || res.DurationMS != 2500 || res.TotalCostUSD != 0.0031 || res.UUID == "" {
		t.Errorf("claude fields: %s", stdout)
	}
	if u := res.Usage; u.InputTokens != 1200 || u.OutputTokens != 300 || u.PromptTokens != 1200 || u.TotalTokens != 1500 || u.Requests != 3 {
		t.Errorf("usage %+v", u)
	}
	if res.Status != "completed" || res.Cost == nil || *res.Cost != 0.0031 || res.Model != "gpt-4.1" || res.Sandbox != "workspace-write" ||
		res.Background == nil || !strings.Contains(stdout, `"background":[]`) {
		t.Errorf("baton fields: %s", stdout)
	}
	stdout, _ = play(t, formatJSON, nil, outcome{Status: event.StatusFailed, Model: "m", Err: "401 unauthorized",
		Usage: event.Usage{TotalTokens: 10}, Sandbox: "unavailable"})
	for _, want := range []string{`"subtype":"error_during_execution","is_error":true`, `"errors":["401 unauthorized"]`,
		`"total_cost_usd":0,`, `"status":"failed","cost":null,"model":"m","error":"401 unauthorized","sandbox":"unavailable"`} {
		if !strings.Contains(stdout, want) {
			t.Errorf("failed run lacks %s:\n%s", want, stdout)
		}
	}
	stdout, _ = play(t, formatJSON, nil, outcome{Status: event.StatusMaxSteps, Text: "partial"})
	if !strings.Contains(stdout, `"subtype":"error_max_turns","is_error":true`) {
		t.Errorf("step limit: %s", stdout)
	}
}

func TestStreamPrinter(t *testing.T) {
	events := sampleTurn()
	req := &event.ApprovalRequest{ID: "ap-1", Kind: event.ApproveTool, Tool: "run_command", Args: `{"command":"go test"}`, Preview: "go test"}
	events = append(events, event.ApprovalRequested{Meta: mainMeta, Request: req})
	stdout, _ := play(t, formatBatonStreamJSON, events, sampleOutcome())
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if len(lines) != len(events) {
		t.Fatalf("%d lines for %d events:\n%s", len(lines), len(events), stdout)
	}
	for i, line := range lines {
		var obj map[string]any
		if err := json.Unmarshal([]byte(line), &obj); err != nil {
			t.Fatalf("line %d is not JSON: %v\n%s", i, err, line)
		}
		if want := `{"type":"` + events[i].Kind() + `",`; !strings.HasPrefix(line, want) {
			t.Errorf("line %d does not start with %s: %s", i, want, line)
		}
	}
	const wantTool = `{"type":"tool_finished","agent":"main","time":"0001-01-01T00:00:00Z","call_id":"c1",` +
		`"name":"read_file","summary":"120 lines","output":"...","is_error":false}`
	if lines[3] != wantTool {
		t.Errorf("tool_finished line:\n%s\nwant\n%s", lines[3], wantTool)
	}
	const wantApproval = `{"type":"approval_requested","agent":"main","time":"0001-01-01T00:00:00Z",` +
		`"request":{"id":"ap-1","kind":"tool","tool":"run_command","args":"{\"command\":\"go test\"}","preview":"go test"}}`
	if last := lines[len(lines)-1]; last != wantApproval {
		t.Errorf("approval line:\n%s\nwant\n%s", last, wantApproval)
	}
}

// failingWriter fails every write, like stdout closed by the reader.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

func TestPrintersReportWriteErrors(t *testing.T) {
	for _, format := range []string{formatText, formatJSON, formatStreamJSON, formatBatonStreamJSON} {
		p := newPrinter(format, failingWriter{}, &bytes.Buffer{}, printOptions{})
		for _, ev := range sampleTurn() {
			p.event(ev)
		}
		if err := p.finish(sampleOutcome()); err == nil || !strings.Contains(err.Error(), "broken pipe") {
			t.Errorf("%s: finish error %v, want broken pipe", format, err)
		}
	}
}

func TestExitCode(t *testing.T) {
	tests := []struct {
		status    event.Status
		signalled bool
		want      int
	}{
		{event.StatusCompleted, false, exitOK},
		{event.StatusCompleted, true, exitOK},
		{event.StatusMaxSteps, false, exitFailed},
		{event.StatusFailed, false, exitFailed},
		{event.StatusInterrupted, true, exitInterrupted},
		{event.StatusCancelled, true, exitInterrupted},
		{event.StatusInterrupted, false, exitFailed},
	}
	for _, tt := range tests {
		if got := exitCode(tt.status, tt.signalled); got != tt.want {
			t.Errorf("exitCode(%s, %v) = %d, want %d", tt.status, tt.signalled, got, tt.want)
		}
	}
}

// writes records each write, as a terminal receives them.
type writes struct{ each []string }

func (w *writes) Write(p []byte) (int, error) { w.each = append(w.each, string(p)); return len(p), nil }

// A message's newlines at its start and end are dropped however the
// deltas split them, messages are apart by one blank line, and an escape
// sequence split across deltas reaches stdout (and so its cleaner) in one
// write, never cut in two.
func TestTextAnswerKeepsSplitEscapesWhole(t *testing.T) {
	var out writes
	p := newPrinter(formatText, &out, io.Discard, printOptions{})
	for _, ev := range []event.Event{
		event.TextDelta{Meta: mainMeta, Text: "\n\nLet me look."}, event.TextDelta{Meta: mainMeta, Text: "\n"},
		event.TextDelta{Meta: mainMeta, Text: "\n"}, event.MessageDone{Meta: mainMeta},
		event.TextDelta{Meta: mainMeta, Text: "The answer is \x1b[3"}, event.TextDelta{Meta: mainMeta, Text: "1mred\x1b[0m"},
		event.TextDelta{Meta: mainMeta, Text: " today\n\n"}, event.MessageDone{Meta: mainMeta},
	} {
		p.event(ev)
	}
	if err := p.finish(outcome{Status: event.StatusCompleted, Text: "The answer is red today"}); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(out.each, ""), "Let me look.\n\nThe answer is \x1b[31mred\x1b[0m today\n"; got != want {
		t.Errorf("stdout %q, want %q", got, want)
	}
	for _, w := range out.each {
		if strings.Contains(w, "\x1b[3") && !strings.Contains(w, "\x1b[31m") {
			t.Errorf("an escape sequence was cut across writes: %q", out.each)
		}
	}
}
