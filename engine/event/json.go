package event

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// MarshalEvent encodes ev as one JSON object with its kind under "type",
// the shape of stream-json output and of transcript records.
func MarshalEvent(ev Event) ([]byte, error) {
	body, err := json.Marshal(ev)
	if err != nil {
		return nil, fmt.Errorf("encode %s event: %w", ev.Kind(), err)
	}
	kind, _ := json.Marshal(ev.Kind())
	if bytes.Equal(body, []byte("{}")) {
		return []byte(`{"type":` + string(kind) + `}`), nil
	}
	return append([]byte(`{"type":`+string(kind)+`,`), body[1:]...), nil
}

// decode returns a decoder for one concrete event type.
func decode[T Event]() func([]byte) (Event, error) {
	return func(data []byte) (Event, error) {
		var ev T
		err := json.Unmarshal(data, &ev)
		return ev, err
	}
}

// decoder is the decoder of a kind a transcript can replay. Approval
// requests are left out on purpose: a replayed one has no one waiting for
// its answer; text deltas are not recorded (MessageDone carries the whole
// text). A switch, not a map, so nothing is built at every start.
func decoder(kind string) (func([]byte) (Event, error), bool) {
	switch kind {
	case TurnStarted{}.Kind():
		return decode[TurnStarted](), true
	case MessageDone{}.Kind():
		return decode[MessageDone](), true
	case ToolStarted{}.Kind():
		return decode[ToolStarted](), true
	case ToolFinished{}.Kind():
		return decode[ToolFinished](), true
	case UsageReported{}.Kind():
		return decode[UsageReported](), true
	case Notice{}.Kind():
		return decode[Notice](), true
	case ErrorOccurred{}.Kind():
		return decode[ErrorOccurred](), true
	case TurnEnded{}.Kind():
		return decode[TurnEnded](), true
	case AgentQueued{}.Kind():
		return decode[AgentQueued](), true
	case AgentStarted{}.Kind():
		return decode[AgentStarted](), true
	case AgentMessage{}.Kind():
		return decode[AgentMessage](), true
	case AgentPlaced{}.Kind():
		return decode[AgentPlaced](), true
	case AgentFinished{}.Kind():
		return decode[AgentFinished](), true
	case ApprovalResolved{}.Kind():
		return decode[ApprovalResolved](), true
	case ConversationCleared{}.Kind():
		return decode[ConversationCleared](), true
	case CompactionStarted{}.Kind():
		return decode[CompactionStarted](), true
	case Compacted{}.Kind():
		return decode[Compacted](), true
	case TodosUpdated{}.Kind():
		return decode[TodosUpdated](), true
	case ReviewFinished{}.Kind():
		return decode[ReviewFinished](), true
	case AgentBackgrounded{}.Kind():
		return decode[AgentBackgrounded](), true
	case AgentDetached{}.Kind():
		return decode[AgentDetached](), true
	case ResultDelivered{}.Kind():
		return decode[ResultDelivered](), true
	}
	return nil, false
}

// UnmarshalEvent decodes what MarshalEvent wrote. Kinds that cannot be
// replayed (text deltas, approval requests) are an error.
func UnmarshalEvent(data []byte) (Event, error) {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("decode event: %w", err)
	}
	dec, ok := decoder(head.Type)
	if !ok {
		return nil, fmt.Errorf("decode event: kind %q cannot be replayed", head.Type)
	}
	ev, err := dec(data)
	if err != nil {
		return nil, fmt.Errorf("decode %s event: %w", head.Type, err)
	}
	return ev, nil
}
