package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// maxLine bounds a progress line, so a huge title or error stays readable.
const maxLine = 200

// textPrinter streams the main agent's text to stdout as it arrives and
// writes one progress line per tool call, child start and child end on
// stderr: enough to follow a run in a CI log without mixing progress into
// the answer a script captures.
type textPrinter struct {
	out, log *lineWriter
	// answer is the main agent's text on stdout.
	answer answerStream
	// titles remembers each call's title from ToolStarted until its
	// ToolFinished arrives.
	titles map[toolCall]string
	// children tracks each running child's start and tool count for its
	// live progress line.
	children map[event.AgentID]*childProgress
}

// childProgress is what a child's live line shows.
type childProgress struct {
	started time.Time
	tools   int
}

// toolCall identifies a call across agents: call ids are only unique
// within one agent's conversation.
type toolCall struct {
	agent event.AgentID
	id    string
}

func newTextPrinter(stdout, stderr io.Writer) *textPrinter {
	return &textPrinter{out: &lineWriter{w: stdout}, log: &lineWriter{w: stderr}, titles: map[toolCall]string{}, children: map[event.AgentID]*childProgress{}}
}

func (p *textPrinter) event(ev event.Event) {
	switch ev := ev.(type) {
	case event.TextDelta:
		if ev.Agent == event.MainAgent {
			p.answer.text(p.out, ev.Text)
		}
	case event.MessageDone:
		if ev.Agent == event.MainAgent {
			p.answer.end(p.out)
		}
	case event.ToolStarted:
		p.titles[toolCall{ev.Agent, ev.CallID}] = ev.Title
	case event.ToolFinished:
		p.toolLine(ev)
	case event.AgentStarted:
		p.children[ev.Agent] = &childProgress{started: ev.Time}
		p.log.printf("%s\n", childProgressLine(ev.Meta, 0, 0, ""))
	case event.AgentFinished:
		delete(p.children, ev.Agent)
		p.log.printf("%s\n", childSummary(ev))
	case event.AgentBackgrounded:
		p.log.printf("%s\n", childLabel(ev.Meta)+" - in the background")
	case event.TurnStarted:
		if ev.Wake { // a background result woke the main agent
			p.log.printf("%s\n", oneLine(ev.Prompt, maxLine))
		}
	case event.Notice:
		p.log.printf("%snote: %s\n", agentPrefix(ev.Meta), oneLine(ev.Text, maxLine))
	case event.ResultsHeld:
		p.log.printf("note: %s\n", oneLine(ev.Text(), maxLine))
	case event.Retrying:
		p.log.printf("%snote: %s\n", agentPrefix(ev.Meta), oneLine(ev.Line(ev.Time), maxLine))
	case event.ErrorOccurred:
		// A child's error reaches its summary line as the reason.
		if ev.Agent == event.MainAgent {
			p.log.printf("error: %s\n", oneLine(ev.Message, maxLine))
		}
	}
}

// toolLine prints "⏺ read_file engine/loop.go (120 lines)", or "✗ …" with
// the error for a failed call; a child's calls are indented and labelled.
func (p *textPrinter) toolLine(ev event.ToolFinished) {
	key := toolCall{ev.Agent, ev.CallID}
	title := p.titles[key]
	delete(p.titles, key)
	if title == "" {
		title = ev.Name
	}
	mark, note := "⏺", ev.Summary
	if ev.IsError {
		mark = "✗"
		if note == "" {
			note = ev.Output
		}
		note = "error: " + note
	}
	line := mark + " " + title
	if note = strings.TrimSpace(note); note != "" {
		line += " (" + note + ")"
	}
	if child, ok := p.children[ev.Agent]; ok {
		child.tools++
		line = childProgressLine(ev.Meta, child.tools, ev.Time.Sub(child.started), line)
	}
	p.log.printf("%s\n", oneLine(line, maxLine))
}

// childProgressLine is a child's live line, "[Explore] find auth code ...
// 5 tools, 3.2s", followed by its latest tool call when there is one.
func childProgressLine(m event.Meta, tools int, elapsed time.Duration, latest string) string {
	line := fmt.Sprintf("%s ... %s, %.1fs", childLabel(m), event.Plural(tools, "tool"), max(elapsed, 0).Seconds())
	if latest != "" {
		line += " · " + latest
	}
	return oneLine(line, maxLine)
}

// finish ends the answer's last line, and says on stderr why a turn did
// not complete.
func (p *textPrinter) finish(o outcome) error {
	p.answer.finish(p.out, o.Text)
	switch o.Status {
	case event.StatusCompleted:
	case event.StatusMaxSteps:
		p.log.printf("baton: stopped at the step limit before the answer was complete\n")
	case event.StatusInterrupted, event.StatusCancelled:
		p.log.printf("baton: interrupted\n")
	default:
		if o.Err == "" {
			p.log.printf("baton: the turn ended with status %s\n", o.Status)
		}
	}
	if p.out.err != nil {
		return fmt.Errorf("write answer: %w", p.out.err)
	}
	return nil
}

// childLabel is "[Explore] find auth code".
func childLabel(m event.Meta) string {
	return oneLine(fmt.Sprintf("[%s] %s", m.AgentType, m.Description), maxLine)
}

// agentPrefix labels a child's line with its type; the main agent's lines
// carry no label.
func agentPrefix(m event.Meta) string {
	if m.Agent == event.MainAgent || m.Agent == "" {
		return ""
	}
	return "[" + m.AgentType + "] "
}

// childSummary is "[Explore] find auth code - done (8 tools, 5.1s)", with
// the reason after a colon when the child did not complete. A denied child
// never ran, so it has no stats.
func childSummary(ev event.AgentFinished) string {
	line := childLabel(ev.Meta) + " - " + ev.Status.Word()
	if ev.Status != event.StatusDenied {
		line += fmt.Sprintf(" (%s, %.1fs)", event.Plural(ev.Stats.ToolCalls, "tool"), ev.Stats.Duration.Seconds())
	}
	if ev.Reason != "" && ev.Status != event.StatusCompleted {
		line += ": " + ev.Reason
	}
	return oneLine(line, maxLine)
}
