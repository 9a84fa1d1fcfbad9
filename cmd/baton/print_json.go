package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
)

// jsonPrinter writes Claude Code's result message when the run ends, for
// scripts that want the answer and its cost without parsing progress;
// with --verbose, every message of the run as one JSON array, as Claude
// Code does.
type jsonPrinter struct {
	out      io.Writer
	msgs     *claudeMessages
	verbose  bool
	messages []any
}

func newJSONPrinter(out io.Writer, info claudeInfo, verbose bool) *jsonPrinter {
	p := &jsonPrinter{out: out, verbose: verbose}
	p.msgs = newClaudeMessages(info, false, func(msg any) {
		if p.verbose {
			p.messages = append(p.messages, msg)
		}
	})
	return p
}

// batonResult are the fields baton's result adds to Claude Code's.
type batonResult struct {
	Status event.Status `json:"status"`
	// Cost is null when the model has no known price: never a guess.
	Cost       *float64 `json:"cost"`
	Model      string   `json:"model"`
	Transcript string   `json:"transcript,omitempty"`
	Error      string   `json:"error,omitempty"`
	// Sandbox is "workspace-write", "read-only", "off" or "unavailable".
	Sandbox string `json:"sandbox"`
	// Worktrees are the sub-agent changes kept on branches
	// (--worktrees keep).
	Worktrees []child.KeptWorktree `json:"worktrees,omitempty"`
	// Merges are what --worktrees apply did: the changes applied after
	// their merged result passed verification, or why none was.
	Merges []child.Merge `json:"merges,omitempty"`
	// Background lists the sub-agents that ran in the background, with
	// their status ("running" only with --no-wait) and whether the main
	// agent received their result; [] when none did.
	Background []child.BackgroundChild `json:"background"`
	// Subagents are the sub-agents that ended in this run: status, use
	// against budget and what their parent was told the person did.
	Subagents []subagentEnding `json:"subagents"`
}

func newBatonResult(o outcome) batonResult {
	res := batonResult{Status: o.Status, Model: o.Model, Transcript: o.Transcript, Error: o.Err,
		Sandbox: o.Sandbox, Worktrees: o.Worktrees, Merges: o.Merges, Background: o.Background}
	if res.Background == nil {
		res.Background = []child.BackgroundChild{}
	}
	if o.Usage.CostKnown {
		cost := o.Usage.Cost
		res.Cost = &cost
	}
	return res
}

func (p *jsonPrinter) event(ev event.Event) { p.msgs.event(ev) }

func (p *jsonPrinter) finish(o outcome) error {
	var doc any = p.msgs.result(o)
	if p.verbose {
		doc = append(p.messages, doc)
		p.messages = nil
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return fmt.Errorf("encode result: %w", err)
	}
	if _, err := fmt.Fprintf(p.out, "%s\n", b); err != nil {
		return fmt.Errorf("write result: %w", err)
	}
	return nil
}

// claudeStreamPrinter writes Claude Code's stream-json: the system/init
// message, then the assistant and user messages of every agent (a
// sub-agent's carry the id of the task call that started it), and a
// result message when each prompt's run ends.
type claudeStreamPrinter struct {
	out  *lineWriter
	msgs *claudeMessages
}

func newClaudeStreamPrinter(out *lineWriter, info claudeInfo, partial bool) *claudeStreamPrinter {
	p := &claudeStreamPrinter{out: out}
	p.msgs = newClaudeMessages(info, partial, p.write)
	return p
}

// write prints one message as a line; a message that cannot be encoded
// is reported in its place rather than left as a gap.
func (p *claudeStreamPrinter) write(msg any) {
	b, err := json.Marshal(msg)
	if err != nil {
		b, _ = json.Marshal(map[string]string{"type": "system", "subtype": "baton_error", "message": err.Error()})
	}
	p.out.printf("%s\n", b)
}

func (p *claudeStreamPrinter) event(ev event.Event) { p.msgs.event(ev) }

func (p *claudeStreamPrinter) finish(o outcome) error {
	p.write(p.msgs.result(o))
	if p.out.err != nil {
		return fmt.Errorf("write messages: %w", p.out.err)
	}
	return nil
}

// streamPrinter writes baton's own events (baton-stream-json) as one JSON
// object a line, the same events the TUI consumes, each with its kind
// under "type".
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
