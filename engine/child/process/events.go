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

// childEvents are the kinds a child's loop emits, the only ones baton
// takes from a child process: its start, end, cards and review are
// baton's own to say.
var childEvents = map[string]func([]byte) (event.Event, error){
	event.TextDelta{}.Kind():      decodeAs[event.TextDelta](),
	event.ReasoningDelta{}.Kind(): decodeAs[event.ReasoningDelta](),
	event.MessageDone{}.Kind():    decodeAs[event.MessageDone](),
	event.StepStarted{}.Kind():    decodeAs[event.StepStarted](),
	event.ToolStarted{}.Kind():    decodeAs[event.ToolStarted](),
	event.ToolFinished{}.Kind():   decodeAs[event.ToolFinished](),
	event.UsageReported{}.Kind():  decodeAs[event.UsageReported](),
	event.Retrying{}.Kind():       decodeAs[event.Retrying](),
	event.Notice{}.Kind():         decodeAs[event.Notice](),
	event.ErrorOccurred{}.Kind():  decodeAs[event.ErrorOccurred](),
	event.TodosUpdated{}.Kind():   decodeAs[event.TodosUpdated](),
	event.AgentMessage{}.Kind():   decodeAs[event.AgentMessage](),
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
	dec, ok := childEvents[head.Type]
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
