package termtext

import "github.com/seed-e4e525a6/baton/engine/event"

// Event cleans the text an event carries from a model, a tool or a
// repository, once, where the event enters the UI: everything drawn
// from it downstream is already safe. An approval's request is shared
// with the engine, which waits on it, so it is left as it is and the
// cards clean what they show of it.
func Event(ev event.Event) event.Event {
	switch e := ev.(type) {
	case event.TurnStarted:
		e.Meta, e.Prompt = meta(e.Meta), Clean(e.Prompt)
		return e
	case event.TextDelta:
		e.Meta, e.Text = meta(e.Meta), Clean(e.Text)
		return e
	case event.ReasoningDelta:
		e.Meta, e.Text = meta(e.Meta), Clean(e.Text)
		return e
	case event.MessageDone:
		// The whole message keeps its tabs for /copy; its views draw it
		// through Clean, as they draw the streamed deltas.
		e.Meta, e.Text = meta(e.Meta), KeepingTabs(e.Text)
		return e
	case event.ToolStarted:
		e.Meta, e.Name, e.Args, e.Title = meta(e.Meta), Clean(e.Name), Clean(e.Args), Clean(e.Title)
		return e
	case event.ToolFinished:
		e.Meta, e.Name, e.Summary, e.Output, e.Diff, e.DenyReason = meta(e.Meta), Clean(e.Name), Clean(e.Summary), Clean(e.Output), Clean(e.Diff), Clean(e.DenyReason)
		return e
	case event.Notice:
		e.Meta, e.Text = meta(e.Meta), Clean(e.Text)
		return e
	case event.ErrorOccurred:
		e.Meta, e.Message = meta(e.Meta), Clean(e.Message)
		return e
	case event.Retrying:
		e.Meta, e.Reason = meta(e.Meta), Clean(e.Reason)
		return e
	case event.TurnEnded:
		e.Meta, e.Text = meta(e.Meta), Clean(e.Text)
		return e
	case event.AgentStarted:
		e.Meta, e.Prompt, e.Model, e.Transcript, e.Sandbox, e.TypeName = meta(e.Meta), Clean(e.Prompt), Clean(e.Model), Clean(e.Transcript), Clean(e.Sandbox), Clean(e.TypeName)
		e.Tools = all(e.Tools)
		return e
	case event.AgentMessage:
		e.Meta, e.Text = meta(e.Meta), Clean(e.Text)
		return e
	case event.AgentPlaced:
		e.Meta, e.Where = meta(e.Meta), Clean(e.Where)
		return e
	case event.AgentFinished:
		e.Meta, e.Reason, e.Text, e.Result, e.Transcript = meta(e.Meta), Clean(e.Reason), Clean(e.Text), Clean(e.Result), Clean(e.Transcript)
		return e
	case event.CompactionStarted:
		e.Meta, e.Focus = meta(e.Meta), Clean(e.Focus)
		return e
	case event.Compacted:
		e.Meta, e.Focus, e.Summary, e.Error = meta(e.Meta), Clean(e.Focus), Clean(e.Summary), Clean(e.Error)
		return e
	case event.ReviewFinished:
		e.Meta, e.Summary = meta(e.Meta), Clean(e.Summary)
		return e
	}
	return ev
}

// meta cleans the words an agent's events name it by.
func meta(m event.Meta) event.Meta {
	m.AgentType, m.Description = Clean(m.AgentType), Clean(m.Description)
	return m
}

// all cleans each of a list, into a new slice: the event's own is shared.
func all(list []string) []string {
	if list == nil {
		return nil
	}
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = Clean(s)
	}
	return out
}
