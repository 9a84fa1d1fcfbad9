package process

import (
	"strings"
	"time"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
)

// progress is what a child process has reported of its run: its partial
// work, should it die before its result.
type progress struct {
	steps     int
	toolCalls int
	usage     event.Usage
	text      string
	streaming strings.Builder
}

// note keeps what ev reports of the child's run.
func (h *handle) note(ev event.Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	p := &h.progress
	switch e := ev.(type) {
	case event.StepStarted:
		p.steps = e.Step
	case event.ToolStarted:
		p.toolCalls++
	case event.UsageReported:
		p.usage = e.Total
	case event.TextDelta:
		if p.streaming.Len() < maxPartial {
			p.streaming.WriteString(e.Text)
		}
	case event.MessageDone:
		if strings.TrimSpace(e.Text) != "" {
			p.text = e.Text
		}
		p.streaming.Reset()
	}
}

// maxPartial bounds the streamed text kept of a message not finished.
const maxPartial = 64 << 10

// partial is the run as far as it was reported: its latest text (the
// message it was streaming, if any) and its counts.
func (p *progress) partial(d time.Duration) agent.Result {
	text := p.text
	if s := p.streaming.String(); strings.TrimSpace(s) != "" {
		text = s
	}
	return agent.Result{Text: text, Stats: event.Stats{Steps: p.steps, ToolCalls: p.toolCalls, Usage: p.usage, Duration: d}}
}
