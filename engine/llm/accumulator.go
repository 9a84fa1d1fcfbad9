package llm

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// accumulator assembles one assistant message from chunks. Tool calls are
// keyed by the provider's index when it sends one, or by their place in a
// delta listing several; a lone delta without an index continues the last
// call unless a new id or a different name says it starts another.
type accumulator struct {
	content   strings.Builder
	reasoning strings.Builder
	calls     []*callBuilder
	byIndex   map[int]*callBuilder
	finish    string
	usage     openai.Usage
	hasUsage  bool
	// hurried says a tool call's OnToolBegin asked for the rest of the
	// reply as it comes, or the reply has finished.
	hurried bool
	// line is where each line is decoded: one chunk for the whole
	// stream, its list of choices kept from line to line. The decoder
	// gives a list room for ten choices (over a KiB) when it starts
	// one, and a reply of a few hundred chunks, decoded each into a
	// chunk of its own, left that much garbage per chunk: about half a
	// MiB of memory by the end of a 300-word answer, which the
	// collector, with so little else allocated, never came to reclaim.
	line chunk
}

type callBuilder struct {
	id, name string
	args     strings.Builder
}

// complete reports whether the arguments so far are a whole JSON value.
func (cb *callBuilder) complete() bool {
	args := strings.TrimSpace(cb.args.String())
	return args != "" && json.Valid([]byte(args))
}

// feed decodes one raw data line and folds it in. A line carrying an error
// in any shape returns it as a *ProviderError.
func (a *accumulator) feed(line []byte, h Handler) error {
	if len(line) == 0 {
		return nil
	}
	ch := &a.line
	ch.reset()
	if err := decodeChunk(line, ch); err != nil {
		return &ProviderError{
			Reason:  "provider sent an unreadable chunk",
			Message: firstLine(line),
			Err:     fmt.Errorf("decode stream chunk: %w", err),
		}
	}
	if pe := ch.inBandError(); pe != nil {
		return pe
	}
	a.add(ch, h)
	return nil
}

// add folds one chunk in, passing text and reasoning deltas to h.
func (a *accumulator) add(c *chunk, h Handler) {
	if c.Usage != nil {
		a.usage, a.hasUsage = *c.Usage, true
	}
	for i := range c.Choices {
		ch := &c.Choices[i]
		if s := ch.Delta.Content.text; s != "" {
			a.content.WriteString(s)
			if h.OnText != nil {
				h.OnText(s)
			}
		}
		s := ch.Delta.ReasoningContent
		if s == "" {
			s = ch.Delta.Reasoning
		}
		s += ch.Delta.Content.thinking
		if s != "" {
			a.reasoning.WriteString(s)
			if h.OnReasoning != nil {
				h.OnReasoning(s)
			}
		}
		for j := range ch.Delta.ToolCalls {
			d := &ch.Delta.ToolCalls[j]
			if d.Index == nil && len(ch.Delta.ToolCalls) > 1 {
				// Several calls without index in one delta (Moonshot's
				// parallel calls): each keeps its place in the list, in
				// this delta and the ones continuing it.
				place := j
				d.Index = &place
			}
			if began := a.addTool(d); began != "" && h.OnToolBegin != nil && h.OnToolBegin(began) {
				a.hurried = true
			}
		}
		if len(ch.Delta.ToolCalls) > 0 && h.OnToolDelta != nil {
			h.OnToolDelta()
		}
		if ch.FinishReason != "" {
			a.finish = ch.FinishReason
			// What follows a finish, the usage and [DONE], is read
			// as it comes: a window's wait for it would only hold the
			// reply's end back.
			a.hurried = true
		}
		if ch.Usage != nil && c.Usage == nil {
			a.usage, a.hasUsage = *ch.Usage, true
		}
	}
}

// addTool folds one tool-call delta into its call, and returns the
// call's name when this delta gave a call its first name ("": it did not).
func (a *accumulator) addTool(d *toolDelta) (began string) {
	if d.ID == "" && d.Function.Name == "" && d.Function.Arguments == "" {
		return ""
	}
	cb := a.target(d)
	if cb.id == "" {
		cb.id = d.ID
	}
	// Some providers repeat the whole name in every delta: appending it
	// would call "readread".
	switch name := d.Function.Name; {
	case name == "" || name == cb.name:
	case cb.name == "":
		cb.name, began = name, name
	default:
		cb.name += name
	}
	cb.args.WriteString(d.Function.Arguments)
	return began
}

// target returns the call a delta belongs to, starting a new one if needed.
func (a *accumulator) target(d *toolDelta) *callBuilder {
	var cur *callBuilder
	if d.Index != nil {
		cur = a.byIndex[*d.Index]
	} else if n := len(a.calls); n > 0 {
		cur = a.calls[n-1]
		// A named delta starts a new call when it names another tool, or
		// when the last call's arguments are already a whole JSON value
		// (parallel calls of one tool sent whole, without index or id).
		if d.Function.Name != "" && cur.name != "" && (d.Function.Name != cur.name || cur.complete()) {
			cur = nil
		}
	}
	if cur != nil && (d.ID == "" || cur.id == "" || d.ID == cur.id) {
		return cur
	}
	cb := &callBuilder{}
	a.calls = append(a.calls, cb)
	if d.Index != nil {
		if a.byIndex == nil {
			a.byIndex = make(map[int]*callBuilder)
		}
		a.byIndex[*d.Index] = cb
	}
	return cb
}

// response returns the assembled message. Tool calls are completed so they
// can go straight into the history: no index, an id, type "function", and
// "{}" for arguments a provider left empty.
func (a *accumulator) response() Response {
	r := a.partial()
	r.FinishReason = a.finish
	for _, cb := range a.calls {
		id := cb.id
		if id == "" {
			id = "call_" + rand.Text()
		}
		args := cb.args.String()
		if strings.TrimSpace(args) == "" {
			args = "{}"
		}
		r.ToolCalls = append(r.ToolCalls, openai.ToolCall{
			ID:       id,
			Type:     openai.ToolTypeFunction,
			Function: openai.FunctionCall{Name: cb.name, Arguments: args},
		})
	}
	return r
}

// partial returns what an interrupted reply had said, without its tool
// calls: a half-made call must never run.
func (a *accumulator) partial() Response {
	return Response{
		Content:   a.content.String(),
		Reasoning: a.reasoning.String(),
		Usage:     a.usage,
		HasUsage:  a.hasUsage,
	}
}
