package engine

import (
	"encoding/json"
	"fmt"
	"sync"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/transcript"
)

// recorder writes a session's transcripts: each agent's events that matter
// and every message added to its history, in its own file. A child's start
// and end are also written to the main file, which points to the child's.
type recorder struct {
	dir *transcript.Dir

	mu     sync.Mutex
	failed error
	// ended are the children whose AgentFinished is written: their file
	// is closed after each record, since a session may run many more
	// children than a process may hold open files.
	ended map[event.AgentID]bool
}

// unrecorded reports the kinds that are streamed pieces and counters
// whose content reaches the transcript whole through another record
// (MessageDone, TurnEnded). A type switch, so nothing is built at start.
func unrecorded(ev event.Event) bool {
	switch ev.(type) {
	case event.TextDelta, event.ReasoningDelta, event.StepStarted, event.UsageReported,
		event.Retrying, // a countdown, over once the retry is sent
		// AgentFinished and ResultDelivered say all a resume needs.
		event.ResultQueued, event.ResultsHeld:
		return true
	}
	return false
}

// mainUsage reports whether ev is the main agent's usage of one request,
// which is recorded so a turn cut short by a crash still counts its cost.
func mainUsage(ev event.Event) bool {
	u, ok := ev.(event.UsageReported)
	return ok && u.Agent == event.MainAgent
}

// alsoInMain reports the child events the parent's transcript keeps too.
func alsoInMain(ev event.Event) bool {
	switch ev.(type) {
	case event.AgentStarted, event.AgentFinished, event.AgentBackgrounded, event.AgentDetached,
		// What the person decided on a worktree child's change: a resume
		// must not offer the review again.
		event.ReviewFinished:
		return true
	}
	return false
}

// event records ev. It returns the first write error once, so the session
// can tell the person; later failures are not repeated.
func (r *recorder) event(ev event.Event) error {
	if r == nil || unrecorded(ev) && !mainUsage(ev) {
		return nil
	}
	agent := ev.EventMeta().Agent
	err := r.append(agent, transcript.KindEvent, ev)
	if _, started := ev.(event.TurnStarted); started && agent == event.MainAgent && err == nil {
		// The session holds a prompt now: closing it keeps it without
		// reading the transcript back.
		r.dir.MarkUsed()
	}
	if agent != event.MainAgent && alsoInMain(ev) {
		err = firstErr(err, r.append(event.MainAgent, transcript.KindEvent, ev))
	}
	if _, ended := ev.(event.TurnEnded); ended && agent == event.MainAgent {
		// The children's files were synced in the background as each
		// ended; by the end of the turn they are on disk.
		err = firstErr(err, r.dir.Settle())
	}
	if agent != event.MainAgent {
		switch ev.(type) {
		case event.AgentStarted:
			r.setEnded(agent, false)
		case event.AgentFinished:
			r.setEnded(agent, true)
		}
		err = firstErr(err, r.releaseEnded(agent))
	}
	return r.report(err)
}

// setEnded marks a child as ended, or running again.
func (r *recorder) setEnded(agent event.AgentID, ended bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ended == nil {
		r.ended = map[event.AgentID]bool{}
	}
	if ended {
		r.ended[agent] = true
	} else {
		delete(r.ended, agent)
	}
}

// releaseEnded closes the file of a child that has ended.
func (r *recorder) releaseEnded(agent event.AgentID) error {
	r.mu.Lock()
	ended := r.ended[agent]
	r.mu.Unlock()
	if !ended {
		return nil
	}
	return r.dir.Release(string(agent))
}

// message records a message added to agent's history.
func (r *recorder) message(agent event.AgentID, m openai.ChatCompletionMessage) error {
	if r == nil {
		return nil
	}
	err := r.append(agent, transcript.KindMessage, m)
	if agent != event.MainAgent {
		err = firstErr(err, r.releaseEnded(agent))
	}
	return r.report(err)
}

// append writes one record to agent's file.
func (r *recorder) append(agent event.AgentID, kind string, data any) error {
	w, err := r.dir.Writer(string(agent))
	if err != nil {
		return err
	}
	if ev, ok := data.(event.Event); ok {
		encoded, err := event.MarshalEvent(ev)
		if err != nil {
			return err
		}
		data = json.RawMessage(encoded)
	}
	return w.Append(kind, string(agent), data)
}

// report keeps the first failure and returns it only the first time.
func (r *recorder) report(err error) error {
	if err == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.failed != nil {
		return nil
	}
	r.failed = err
	return fmt.Errorf("transcript: %w (the session goes on without a complete record)", err)
}

// fileOf is the transcript path of agent, or "" without transcripts.
func (r *recorder) fileOf(agent event.AgentID) string {
	if r == nil {
		return ""
	}
	return r.dir.FileOf(string(agent))
}

// firstErr returns a if set, else b.
func firstErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}
