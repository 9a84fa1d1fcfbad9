package acpagent

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
)

// The bounds of what baton keeps of an agent's stream.
const (
	// maxMessageText bounds the text kept of one message: the result is
	// cut to the parent's bound later, and a pane shows less.
	maxMessageText = 1 << 20
	// maxOpenCalls bounds the agent's tool calls baton follows at once.
	maxOpenCalls = 256
	// maxShown bounds a tool call's output or arguments shown in a pane.
	maxShown = 8 << 10
)

// stream turns the agent's session updates into the child's events, in
// the order they came, and keeps what its result needs: the message it
// is streaming, the last one it finished, its tool calls.
type stream struct {
	job child.Job

	mu       sync.Mutex
	message  strings.Builder
	last     string
	calls    map[string]openCall
	tools    int
	messages int
	// usage is what the agent reported of its tokens; told are the
	// notices the pane had, each given once.
	usage event.Usage
	told  map[string]bool
	// onToolCall is told the count of tool calls each time the agent
	// begins one (nil: nobody counts).
	onToolCall func(calls int)
}

// openCall is a tool call of the agent that has not ended.
type openCall struct{ name, title string }

func newStream(job child.Job) *stream {
	return &stream{job: job, calls: map[string]openCall{}, told: map[string]bool{}}
}

// meta is the child's identity, stamped now.
func (s *stream) meta() event.Meta {
	m := s.job.Spec.Meta
	m.Time = time.Now()
	return m
}

// take handles one session update.
func (s *stream) take(raw json.RawMessage) error {
	var u update
	if err := json.Unmarshal(raw, &u); err != nil {
		return fmt.Errorf("a session update baton cannot read: %w", err)
	}
	switch u.SessionUpdate {
	case "agent_message_chunk":
		if t := chunkText(u.Content); t != "" {
			s.text(t)
		}
	case "agent_thought_chunk":
		if t := chunkText(u.Content); t != "" {
			s.job.Link.Emit(event.ReasoningDelta{Meta: s.meta(), Text: t})
		}
	case "tool_call":
		s.toolStarted(u.toolCall)
		s.toolUpdated(u.toolCall, u.Content)
	case "tool_call_update":
		s.toolUpdated(u.toolCall, u.Content)
	case "plan":
		s.plan(u.Entries)
	}
	// Other updates (the person's own message replayed, commands,
	// modes, usage) say nothing the pane shows.
	return nil
}

// text streams a piece of the agent's message.
func (s *stream) text(t string) {
	s.mu.Lock()
	if room := maxMessageText - s.message.Len(); room > 0 {
		s.message.WriteString(clip(t, room))
	}
	s.mu.Unlock()
	s.job.Link.Emit(event.TextDelta{Meta: s.meta(), Text: t})
}

// endMessage closes the message being streamed, if any: a tool call or
// the end of a turn comes after it.
func (s *stream) endMessage() {
	s.mu.Lock()
	text := s.message.String()
	s.message.Reset()
	if strings.TrimSpace(text) != "" {
		s.last = text
		s.messages++
	}
	s.mu.Unlock()
	if text != "" {
		s.job.Link.Emit(event.MessageDone{Meta: s.meta(), Text: text})
	}
}

// toolStarted shows a call the agent begins.
func (s *stream) toolStarted(c toolCall) {
	s.endMessage()
	s.mu.Lock()
	if _, known := s.calls[c.ToolCallID]; known || c.ToolCallID == "" || len(s.calls) >= maxOpenCalls {
		s.mu.Unlock()
		return
	}
	oc := openCall{name: toolName(c.Kind), title: oneLine(c.Title)}
	s.calls[c.ToolCallID] = oc
	s.tools++
	calls := s.tools
	s.mu.Unlock()
	// Each call is a step, so the pane counts them as baton's own.
	s.job.Link.Emit(event.StepStarted{Meta: s.meta(), Step: calls, Max: s.job.Spec.MaxSteps})
	s.job.Link.Emit(event.ToolStarted{Meta: s.meta(), CallID: c.ToolCallID, Name: oc.name, Title: oc.title, Args: clip(string(c.RawInput), maxShown)})
	if s.onToolCall != nil {
		s.onToolCall(calls)
	}
}

// toolUpdated ends a call the agent reports completed or failed, with
// what it shows: its text, or its edits as a diff.
func (s *stream) toolUpdated(c toolCall, content json.RawMessage) {
	if c.Status != "completed" && c.Status != "failed" {
		return
	}
	s.mu.Lock()
	oc, open := s.calls[c.ToolCallID]
	delete(s.calls, c.ToolCallID)
	s.mu.Unlock()
	if !open {
		return
	}
	output, diff := shown(content)
	s.job.Link.Emit(event.ToolFinished{Meta: s.meta(), CallID: c.ToolCallID, Name: oc.name, Output: output, Diff: diff,
		Summary: c.Status, IsError: c.Status == "failed"})
}

// plan shows the agent's plan as its task list.
func (s *stream) plan(entries []planEntry) {
	todos := make([]event.Todo, 0, len(entries))
	for _, e := range entries {
		status := event.TodoStatus(e.Status)
		switch status {
		case event.TodoPending, event.TodoInProgress, event.TodoCompleted:
		default:
			status = event.TodoPending
		}
		todos = append(todos, event.Todo{Content: oneLine(e.Content), Status: status, Priority: e.Priority})
	}
	s.job.Link.Emit(event.TodosUpdated{Meta: s.meta(), Todos: todos})
}

// addUsage adds a turn's use to the child's, shows it, and returns the
// total. ACP carries no price, so the cost stays unknown.
func (s *stream) addUsage(u event.Usage) event.Usage {
	s.mu.Lock()
	s.usage = s.usage.Add(u)
	total := s.usage
	s.mu.Unlock()
	s.job.Link.Emit(event.UsageReported{Meta: s.meta(), Request: u, Total: total})
	return total
}

// once reports whether this is the first time it is asked about what
// (the pane is told "no usage reported" once).
func (s *stream) once(what string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	first := !s.told[what]
	s.told[what] = true
	return first
}

// notice shows a line about the agent in its pane.
func (s *stream) notice(text string) {
	s.job.Link.Emit(event.Notice{Meta: s.meta(), Text: text})
}

// result is the run as far as it went: its last message (the one it was
// streaming, when it stopped in the middle) and its counts. Calls left
// open end failed.
func (s *stream) result(d time.Duration) agent.Result {
	s.mu.Lock()
	text := s.last
	if partial := s.message.String(); strings.TrimSpace(partial) != "" {
		text = partial
	}
	open := s.calls
	s.calls = map[string]openCall{}
	// Each tool call is a model request that called it, and the answer
	// one more.
	res := agent.Result{Text: text, Stats: event.Stats{Steps: s.tools + 1, ToolCalls: s.tools, Duration: d, Usage: s.usage}}
	s.mu.Unlock()
	for id, oc := range open {
		s.job.Link.Emit(event.ToolFinished{Meta: s.meta(), CallID: id, Name: oc.name, Summary: "not finished", IsError: true})
	}
	return res
}

// chunkText is a content block's text; other blocks (images, links)
// are not shown.
func chunkText(raw json.RawMessage) string {
	var b struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &b) != nil || b.Type != "text" {
		return ""
	}
	return b.Text
}

// shown is what a finished call shows: its text content, bounded, and
// its edits as one unified diff.
func shown(raw json.RawMessage) (output, diff string) {
	var items []toolContent
	if json.Unmarshal(raw, &items) != nil {
		return "", ""
	}
	var out, diffs strings.Builder
	for _, it := range items {
		switch {
		case it.Type == "content" && it.Content != nil && it.Content.Type == "text":
			out.WriteString(it.Content.Text)
			out.WriteString("\n")
		case it.Type == "diff":
			diffs.WriteString(unified(it))
		}
		if out.Len() > maxShown && diffs.Len() > maxShown {
			break
		}
	}
	return clip(strings.TrimRight(out.String(), "\n"), maxShown), clip(diffs.String(), 4*maxShown)
}

// unified is a diff item as a unified diff.
func unified(it toolContent) string {
	old := ""
	if it.OldText != nil {
		old = *it.OldText
	}
	d, err := udiff.ToUnified("a/"+it.Path, "b/"+it.Path, old, udiff.Strings(old, it.NewText), udiff.DefaultContextLines)
	if err != nil {
		return ""
	}
	return d
}

// toolName is the baton tool an ACP kind of call is closest to, for the
// pane's icon and words; other kinds keep their own name.
func toolName(kind string) string {
	switch kind {
	case "read":
		return "read_file"
	case "edit", "delete", "move":
		return "edit_file"
	case "search":
		return "grep"
	case "execute":
		return "run_command"
	case "fetch":
		return "web_fetch"
	case "":
		return "other"
	}
	return oneLine(kind)
}

// oneLine bounds a title to one line of at most 200 bytes.
func oneLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return clip(s, 200)
}

// clip cuts s to at most n bytes on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}
