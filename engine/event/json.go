package event

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"
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

// decoders hold the kinds a transcript can replay. Approval requests are
// left out on purpose: a replayed one has no one waiting for its answer;
// text deltas are not recorded (MessageDone carries the whole text). The
// table is built on first use: a package-level map is built at every
// start, --version included.
func decoders() map[string]func([]byte) (Event, error) {
	decodersOnce.Do(func() {
		decodersValue = map[string]func([]byte) (Event, error){
			TurnStarted{}.Kind():         decode[TurnStarted](),
			MessageDone{}.Kind():         decode[MessageDone](),
			ToolStarted{}.Kind():         decode[ToolStarted](),
			ToolFinished{}.Kind():        decode[ToolFinished](),
			UsageReported{}.Kind():       decode[UsageReported](),
			Notice{}.Kind():              decode[Notice](),
			ErrorOccurred{}.Kind():       decode[ErrorOccurred](),
			TurnEnded{}.Kind():           decode[TurnEnded](),
			AgentQueued{}.Kind():         decode[AgentQueued](),
			AgentStarted{}.Kind():        decode[AgentStarted](),
			AgentMessage{}.Kind():        decode[AgentMessage](),
			AgentPlaced{}.Kind():         decode[AgentPlaced](),
			AgentFinished{}.Kind():       decode[AgentFinished](),
			ApprovalResolved{}.Kind():    decode[ApprovalResolved](),
			ConversationCleared{}.Kind(): decode[ConversationCleared](),
			CompactionStarted{}.Kind():   decode[CompactionStarted](),
			Compacted{}.Kind():           decode[Compacted](),
			TodosUpdated{}.Kind():        decode[TodosUpdated](),
			ReviewFinished{}.Kind():      decode[ReviewFinished](),
			AgentBackgrounded{}.Kind():   decode[AgentBackgrounded](),
			AgentDetached{}.Kind():       decode[AgentDetached](),
			ResultDelivered{}.Kind():     decode[ResultDelivered](),
		}
	})
	return decodersValue
}

// decodersOnce and decodersValue hold the table (a zero sync.Once costs
// nothing at start).
var (
	decodersOnce  sync.Once
	decodersValue map[string]func([]byte) (Event, error)
)

// UnmarshalEvent decodes what MarshalEvent wrote. Kinds that cannot be
// replayed (text deltas, approval requests) are an error.
func UnmarshalEvent(data []byte) (Event, error) {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("decode event: %w", err)
	}
	dec, ok := decoders()[head.Type]
	if !ok {
		return nil, fmt.Errorf("decode event: kind %q cannot be replayed", head.Type)
	}
	ev, err := dec(data)
	if err != nil {
		return nil, fmt.Errorf("decode %s event: %w", head.Type, err)
	}
	return ev, nil
}
