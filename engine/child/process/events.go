package process

import (
	"encoding/json"
	"fmt"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// decodeAs decodes one concrete event type.
func decodeAs[T event.Event]() func([]byte) (event.Event, error) {
	return func(data []byte) (event.Event, error) {
		var ev T
		err := json.Unmarshal(data, &ev)
		return ev, err
	}
}

// childEvent is the decoder of a kind a child's loop emits, the only
// kinds baton takes from a child process: its start, end, cards and
// review are baton's own to say. A switch, so nothing is built at start.
func childEvent(kind string) (func([]byte) (event.Event, error), bool) {
	switch kind {
	case event.TextDelta{}.Kind():
		return decodeAs[event.TextDelta](), true
	case event.ReasoningDelta{}.Kind():
		return decodeAs[event.ReasoningDelta](), true
	case event.MessageDone{}.Kind():
		return decodeAs[event.MessageDone](), true
	case event.StepStarted{}.Kind():
		return decodeAs[event.StepStarted](), true
	case event.ToolStarted{}.Kind():
		return decodeAs[event.ToolStarted](), true
	case event.ToolFinished{}.Kind():
		return decodeAs[event.ToolFinished](), true
	case event.UsageReported{}.Kind():
		return decodeAs[event.UsageReported](), true
	case event.Retrying{}.Kind():
		return decodeAs[event.Retrying](), true
	case event.Notice{}.Kind():
		return decodeAs[event.Notice](), true
	case event.ErrorOccurred{}.Kind():
		return decodeAs[event.ErrorOccurred](), true
	case event.TodosUpdated{}.Kind():
		return decodeAs[event.TodosUpdated](), true
	case event.AgentMessage{}.Kind():
		return decodeAs[event.AgentMessage](), true
	}
	return nil, false
}

// decodeEvent decodes an event a child process sent, refusing a kind a
// child does not emit and an event about any agent but the child itself.
func decodeEvent(data []byte, self event.Meta) (event.Event, error) {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("decode event: %w", err)
	}
	dec, ok := childEvent(head.Type)
	if !ok {
		return nil, fmt.Errorf("an event of kind %q, which a child does not send", head.Type)
	}
	ev, err := dec(data)
	if err != nil {
		return nil, fmt.Errorf("decode %s event: %w", head.Type, err)
	}
	got := ev.EventMeta()
	got.Time = self.Time
	if got != self {
		return nil, fmt.Errorf("a %s event about agent %q, not itself", head.Type, ev.EventMeta().Agent)
	}
	return ev, nil
}
