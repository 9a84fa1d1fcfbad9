package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/child/process"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/transcript"
)

// History returns the events of a resumed conversation, in order, for the
// UI to draw before live events arrive; it is empty for a new session.
func (s *Session) History() []event.Event {
	return append([]event.Event(nil), s.history...)
}

// ResumeNotes are what resuming found wrong (a line cut short by a
// crash), for a headless run to print; the UI gets them in History.
func (s *Session) ResumeNotes() []string {
	return append([]string(nil), s.resumeNotes...)
}

// ID is the session's id ("" without a transcript).
func (s *Session) ID() string {
	if s.cfg.Transcript == nil {
		return ""
	}
	return s.cfg.Transcript.ID()
}

// TranscriptFile is the main agent's transcript ("" without one).
func (s *Session) TranscriptFile() string {
	return s.rec.fileOf(event.MainAgent)
}

// resume loads the main transcript, if it holds anything: the model gets
// the same history, children that were running when baton died are marked
// interrupted, and a line cut short by a crash is reported and dropped.
func (s *Session) resume() error {
	records, cut, err := s.cfg.Transcript.Read(transcript.MainAgent)
	if errors.Is(err, fs.ErrNotExist) {
		return s.writeMeta()
	}
	if err != nil {
		return fmt.Errorf("resume session: %w", err)
	}
	if len(records) == 0 && cut != nil {
		// Never a silent new session in place of the one asked for.
		return fmt.Errorf("resume session %s: %s holds no readable record (%s); start a new session with plain baton",
			s.ID(), s.rec.fileOf(event.MainAgent), cut)
	}
	if len(records) == 0 {
		return s.writeMeta()
	}
	running := map[event.AgentID]event.AgentStarted{}
	var order []event.AgentID
	history := s.main.History()[:1]
	for _, rec := range records {
		switch rec.Kind {
		case transcript.KindMessage:
			var m openai.ChatCompletionMessage
			if json.Unmarshal(rec.Data, &m) == nil && m.Role != openai.ChatMessageRoleSystem {
				history = append(history, m)
			}
		case transcript.KindEvent:
			ev, err := event.UnmarshalEvent(rec.Data)
			if err != nil {
				continue
			}
			s.history = append(s.history, ev)
			s.noteUsage(ev)
			s.children.NoteUsed(ev)
			s.ids.noteUsed(ev)
			switch e := ev.(type) {
			case event.ApprovalResolved:
				s.perms.NoteApproval(e.RequestID)
			case event.AgentStarted:
				running[e.Agent] = e
				order = append(order, e.Agent)
			case event.AgentFinished:
				delete(running, e.Agent)
			case event.ConversationCleared:
				history = history[:1]
			case event.Compacted:
				if e.Summary != "" {
					history = history[:1] // the summary message follows
				}
			}
		}
	}
	s.totals = s.totals.Add(s.pendingUsage)
	for id, started := range running {
		switch {
		case s.children.CanAttach(started):
			s.found = append(s.found, started)
			delete(running, id)
		case started.Detachable && started.Runner == child.RunnerProcess:
			// Its runner is not offered here: none runs on unreachable.
			process.Abandon(s.children.Home(id), id)
		}
	}
	slices.SortFunc(s.found, func(a, b event.AgentStarted) int { return a.Number - b.Number })
	s.markInterrupted(running, order)
	if n := s.children.Restore(s.history); n > 0 {
		note := fmt.Sprintf("%s of background sub-agents from before the quit will be delivered to the main agent before your next prompt", event.Plural(n, "result"))
		s.resumeNotes = append(s.resumeNotes, note)
		s.history = append(s.history, event.Notice{Meta: event.Meta{Agent: event.MainAgent, Time: time.Now()}, Text: note})
	}
	history, rep := agent.RepairHistory(history)
	s.main.Load(history)
	var parts []string
	if cut != nil {
		parts = append(parts, "the transcript was cut short by a crash or damaged: "+cut.String())
	}
	if repairs := rep.Notes(); len(repairs) > 0 {
		parts = append(parts, "repaired the conversation so the model accepts it: "+strings.Join(repairs, ", "))
	}
	if len(parts) > 0 {
		note := strings.Join(parts, "; ")
		s.resumeNotes = append(s.resumeNotes, note)
		s.history = append(s.history, event.Notice{Meta: event.Meta{Agent: event.MainAgent, Time: time.Now()}, Text: note})
	}
	s.noteChildren()
	return nil
}

// noteChildren says, last so the status line keeps it, which children
// ran on without baton and are taken up again, and which a stop
// interrupted, with how to take them up.
func (s *Session) noteChildren() {
	var notes []string
	if len(s.found) > 0 {
		notes = append(notes, fmt.Sprintf("%s on without baton, taken up again: their results reach the main agent as background results do",
			event.Plural(len(s.found), "sub-agent ran/sub-agents ran")))
	}
	if note := interruptedNote(s.history); note != "" {
		notes = append(notes, note)
	}
	for _, note := range notes {
		s.resumeNotes = append(s.resumeNotes, note)
		s.history = append(s.history, event.Notice{Meta: event.Meta{Agent: event.MainAgent, Time: time.Now()}, Text: note})
	}
}

// noteUsage adds a finished turn's usage to the session's totals; the
// requests of a turn a crash cut short count one by one.
func (s *Session) noteUsage(ev event.Event) {
	switch e := ev.(type) {
	case event.UsageReported:
		if e.Agent == event.MainAgent {
			s.pendingUsage = s.pendingUsage.Add(e.Request)
		}
	case event.TurnEnded:
		if e.Agent == event.MainAgent {
			s.totals = s.totals.Add(e.Usage)
			s.pendingUsage = event.Usage{}
		}
	}
}

// markInterrupted ends, in the record and on screen, the children that
// never finished because baton stopped, with the work each had done.
func (s *Session) markInterrupted(running map[event.AgentID]event.AgentStarted, order []event.AgentID) {
	for _, id := range order {
		started, ok := running[id]
		if !ok {
			continue
		}
		ev := s.children.Interrupted(started, time.Now())
		_ = s.rec.event(ev)
		s.history = append(s.history, ev)
	}
}

// interruptedNote lists the children a stop interrupted that nobody took
// up again since, and says how to: "" when there are none.
func interruptedNote(history []event.Event) string {
	left := map[event.AgentID]event.Meta{}
	for _, ev := range history {
		switch e := ev.(type) {
		case event.AgentFinished:
			if e.Status == event.StatusInterrupted {
				left[e.Agent] = e.Meta
			}
		case event.AgentStarted:
			delete(left, e.Continues)
		}
	}
	if len(left) == 0 {
		return ""
	}
	metas := slices.SortedFunc(maps.Values(left), func(a, b event.Meta) int { return a.Number - b.Number })
	names := make([]string, len(metas))
	for i, m := range metas {
		names[i] = fmt.Sprintf("#%d %s", m.Number, m.Agent)
	}
	return fmt.Sprintf("%s interrupted when baton stopped (%s): /subagents resume N continues one from where it stopped, /subagents retry N starts it afresh",
		event.Plural(len(names), "sub-agent was/sub-agents were"), strings.Join(names, ", "))
}

// writeMeta starts a new transcript with the session's facts.
func (s *Session) writeMeta() error {
	w, err := s.cfg.Transcript.Writer(transcript.MainAgent)
	if err != nil {
		return fmt.Errorf("start transcript: %w", err)
	}
	meta := transcript.Meta{Workspace: s.cfg.Workspace, Model: s.cfg.Model, Version: s.cfg.Version}
	if err := w.Append(transcript.KindMeta, transcript.MainAgent, meta); err != nil {
		return fmt.Errorf("start transcript: %w", err)
	}
	return nil
}

// AgentRecords reads an agent's transcript, for /subagents log and info.
// It works for children of a resumed session too. It reads a file, so the
// UI calls it from a command, never from Update.
func (s *Session) AgentRecords(id event.AgentID) ([]transcript.Record, error) {
	if s.cfg.Transcript == nil {
		return nil, errors.New("this session is not recorded")
	}
	records, _, err := s.cfg.Transcript.Read(string(id))
	if err != nil {
		return nil, fmt.Errorf("read transcript of %s: %w", id, err)
	}
	return records, nil
}
