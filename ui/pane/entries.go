package pane

import (
	"strings"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// EntryKind says what one transcript entry is.
type EntryKind int

// The kinds of a child's transcript entries.
const (
	// Prompt is the task the child was given.
	Prompt EntryKind = iota
	// Text is a message of the child (Title "reasoning" for its thinking).
	Text
	// ToolCall is one tool call with its result.
	ToolCall
	// Message is a message the person sent into the child.
	Message
	// Notice is a status line or an error.
	Notice
	// Status is how the child ended, always the last entry.
	Status
)

// Entry is one part of a child's transcript, as the full-screen view and
// /subagents log show it. Every text is cleaned of control characters;
// Title and Summary are one line, Body may have many.
type Entry struct {
	Kind  EntryKind
	Title string
	Body  string
	// Summary is a tool call's short result ("120 lines"), or a final
	// status's stats ("8 tools, 5.1s, 3.2k tok").
	Summary string
	IsError bool
	// Denied marks a tool call the person refused; Summary then says so.
	Denied bool
	// Live marks the message the child is streaming now, whose Body grows.
	Live bool
}

// Entries is the child's transcript so far: its prompt, then what it said
// and did in order, including the message it is streaming now. The slice
// is the caller's own.
func (p *Pane) Entries() []Entry {
	out := make([]Entry, 0, len(p.entries)+3)
	if p.prompt != "" {
		out = append(out, Entry{Kind: Prompt, Title: "prompt", Body: termtext.Clean(p.prompt)})
	}
	out = append(out, p.entries...)
	if p.thinking.Len() > 0 {
		out = append(out, Entry{Kind: Text, Title: "reasoning", Body: termtext.Clean(p.thinking.String()), Live: true})
	}
	if p.stream.Len() > 0 {
		out = append(out, Entry{Kind: Text, Title: oneLine(p.meta.AgentType), Body: termtext.Clean(p.stream.String()), Live: true})
	}
	return out
}

// messageDone closes the message being streamed. text is the whole
// message; it also covers a provider that sent no deltas.
func (p *Pane) messageDone(text string) {
	p.flush(text)
}

// flush moves the streamed reasoning and text into the transcript. final,
// when set, is the message's whole text and replaces what was streamed.
func (p *Pane) flush(final string) {
	if p.thinking.Len() > 0 {
		p.entries = append(p.entries, Entry{Kind: Text, Title: "reasoning", Body: termtext.Clean(p.thinking.String())})
		p.activity.settle(itemThinking, "")
		p.thinking.Reset()
	}
	text := final
	if text == "" {
		text = p.stream.String()
	}
	p.stream.Reset()
	p.prose.stream = nil
	if strings.TrimSpace(text) == "" {
		p.activity.settle(itemText, "")
		return
	}
	text = termtext.Clean(text)
	p.entries = append(p.entries, Entry{Kind: Text, Title: oneLine(p.meta.AgentType), Body: text})
	p.activity.settle(itemText, text)
}

// toolStarted opens a tool call's entry and makes it the current activity.
func (p *Pane) toolStarted(e event.ToolStarted) {
	title := oneLine(e.Title)
	if title == "" {
		title = oneLine(e.Name + " " + e.Args)
	}
	p.calls[e.CallID] = len(p.entries)
	p.entries = append(p.entries, Entry{Kind: ToolCall, Title: title})
	p.activity.add(item{kind: itemTool, text: title, name: e.Name, callID: e.CallID})
}

// toolFinished counts the call and keeps its short and full result.
func (p *Pane) toolFinished(e event.ToolFinished) {
	p.tools++
	summary := oneLine(e.Summary)
	body := e.Output
	if e.Diff != "" {
		body = e.Diff
	}
	body = strings.TrimRight(termtext.Clean(body), "\n")
	if e.Denied {
		summary, body = "denied", ""
		if reason := oneLine(e.DenyReason); reason != "" {
			summary += ": " + reason
		}
	}
	if i, ok := p.calls[e.CallID]; ok {
		delete(p.calls, e.CallID)
		p.entries[i].Summary, p.entries[i].Body, p.entries[i].IsError, p.entries[i].Denied = summary, body, e.IsError, e.Denied
	} else {
		p.entries = append(p.entries, Entry{Kind: ToolCall, Title: oneLine(e.Name), Summary: summary, Body: body, IsError: e.IsError, Denied: e.Denied})
	}
	p.activity.finishTool(e.CallID, oneLine(e.Name), summary, e.IsError)
}

// closeCalls marks the calls still open when the child ended.
func (p *Pane) closeCalls() {
	for id, i := range p.calls {
		p.entries[i].Summary = "no result: " + p.state.String()
		delete(p.calls, id)
	}
}

// note records a message sent in, a notice or an error.
func (p *Pane) note(kind EntryKind, title, text string, isError bool, activity itemKind) {
	body := strings.TrimRight(termtext.Clean(text), "\n")
	p.entries = append(p.entries, Entry{Kind: kind, Title: title, Body: body, IsError: isError})
	p.activity.add(item{kind: activity, text: oneLine(text)})
}
