package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
)

// jsonPrinter writes one object when the turn ends, for scripts that want
// the answer and its cost without parsing progress.
type jsonPrinter struct {
	out io.Writer
}

// jsonResult is the --output-format json document.
type jsonResult struct {
	Result string       `json:"result"`
	Status event.Status `json:"status"`
	Usage  jsonUsage    `json:"usage"`
	// Cost is null when the model has no known price: never a guess.
	Cost       *float64 `json:"cost"`
	DurationMS int64    `json:"duration_ms"`
	Model      string   `json:"model"`
	SessionID  string   `json:"session_id,omitempty"`
	Transcript string   `json:"transcript,omitempty"`
	Error      string   `json:"error,omitempty"`
	// Sandbox is "workspace-write", "read-only", "off" or "unavailable".
	Sandbox string `json:"sandbox"`
	// Worktrees are the sub-agent changes kept on branches
	// (--worktrees keep).
	Worktrees []child.KeptWorktree `json:"worktrees,omitempty"`
	// Background lists the sub-agents that ran in the background, with
	// their status ("running" only with --no-wait) and whether the main
	// agent received their result; [] when none did.
	Background []child.BackgroundChild `json:"background"`
}

// jsonUsage is the token part of event.Usage; the cost has its own field.
type jsonUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
	Requests         int `json:"requests"`
}

func (p *jsonPrinter) event(event.Event) {}

func (p *jsonPrinter) finish(o outcome) error {
	res := jsonResult{
		Result: o.Text,
		Status: o.Status,
		Usage: jsonUsage{
			PromptTokens:     o.Usage.PromptTokens,
			CompletionTokens: o.Usage.CompletionTokens,
			TotalTokens:      o.Usage.TotalTokens,
			Requests:         o.Usage.Requests,
		},
		DurationMS: o.Duration.Milliseconds(),
		Model:      o.Model,
		SessionID:  o.SessionID,
		Transcript: o.Transcript,
		Error:      o.Err,
		Sandbox:    o.Sandbox,
		Worktrees:  o.Worktrees,
		Background: o.Background,
	}
	if res.Background == nil {
		res.Background = []child.BackgroundChild{}
	}
	if o.Usage.CostKnown {
		cost := o.Usage.Cost
		res.Cost = &cost
	}
	b, err := json.Marshal(res)
	if err != nil {
		return fmt.Errorf("encode result: %w", err)
	}
	if _, err := fmt.Fprintf(p.out, "%s\n", b); err != nil {
		return fmt.Errorf("write result: %w", err)
	}
	return nil
}

// streamPrinter writes every event as one JSON object a line, the same
// events the TUI consumes, each with its kind under "type".
type streamPrinter struct {
	out *lineWriter
}

func (p *streamPrinter) event(ev event.Event) {
	b, err := eventJSON(ev)
	if err != nil {
		// Report the event that could not be encoded in-band rather than
		// leave a gap in the stream.
		b, _ = json.Marshal(struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		}{"error", err.Error()})
	}
	p.out.printf("%s\n", b)
}

func (p *streamPrinter) finish(outcome) error {
	if p.out.err != nil {
		return fmt.Errorf("write events: %w", p.out.err)
	}
	return nil
}

// eventJSON marshals ev and puts "type" first, so a reader can dispatch on
// the first key. ApprovalRequested marshals without its reply channel,
// which is unexported.
func eventJSON(ev event.Event) ([]byte, error) {
	body, err := json.Marshal(ev)
	if err != nil {
		return nil, fmt.Errorf("encode %s event: %w", ev.Kind(), err)
	}
	if len(body) < 2 || body[0] != '{' {
		return nil, fmt.Errorf("encode %s event: not a JSON object", ev.Kind())
	}
	kind, _ := json.Marshal(ev.Kind())
	var buf bytes.Buffer
	buf.WriteString(`{"type":`)
	buf.Write(kind)
	if inner := bytes.TrimSpace(body[1 : len(body)-1]); len(inner) > 0 {
		buf.WriteByte(',')
		buf.Write(inner)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}
