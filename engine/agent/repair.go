package agent

import (
	"fmt"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// stoppedResult answers a call whose result the record does not hold.
const stoppedResult = "Error: baton stopped before this call finished"

// Repairs count what RepairHistory changed, for the resume notes.
type Repairs struct {
	orphans  int // tool results without their call, dropped
	answered int // calls without a result, answered with stoppedResult
	renamed  int // call ids seen before, made unique
}

// Notes says what was repaired, one sentence per kind of repair.
func (r Repairs) Notes() []string {
	var out []string
	if r.orphans > 0 {
		out = append(out, fmt.Sprintf("dropped %s whose call was lost from the record", event.Plural(r.orphans, "tool result")))
	}
	if r.answered > 0 {
		out = append(out, fmt.Sprintf("answered %s the record holds no result for (marked as stopped)", event.Plural(r.answered, "tool call")))
	}
	if r.renamed > 0 {
		out = append(out, fmt.Sprintf("renamed %s that repeated an earlier call's id", event.Plural(r.renamed, "tool call")))
	}
	return out
}

// RepairHistory makes a resumed history one that strict providers accept:
// every tool message directly follows the assistant message that made its
// call (results without one, left by a lost or corrupt line, are dropped),
// every call has exactly one result (a missing one says baton stopped),
// and no call id repeats an earlier one (some providers reuse ids across
// turns; a repeat is renamed along with its result).
func RepairHistory(history []openai.ChatCompletionMessage) ([]openai.ChatCompletionMessage, Repairs) {
	var rep Repairs
	used := map[string]bool{}
	out := make([]openai.ChatCompletionMessage, 0, len(history))
	for i := 0; i < len(history); i++ {
		m := history[i]
		if m.Role == openai.ChatMessageRoleTool {
			rep.orphans++ // a result not right after its call
			continue
		}
		if m.Role != openai.ChatMessageRoleAssistant || len(m.ToolCalls) == 0 {
			out = append(out, m)
			continue
		}
		m.ToolCalls = append([]openai.ToolCall(nil), m.ToolCalls...)
		rename := map[string]string{} // the id results carry → the id used now
		for j, call := range m.ToolCalls {
			id := call.ID
			if used[id] || id == "" {
				id = uniqueID(call.ID, used)
				rep.renamed++
			}
			used[id] = true
			if _, seen := rename[call.ID]; !seen {
				rename[call.ID] = id
			}
			m.ToolCalls[j].ID = id
		}
		out = append(out, m)
		answered := map[string]bool{}
		for i+1 < len(history) && history[i+1].Role == openai.ChatMessageRoleTool {
			i++
			res := history[i]
			id, ok := rename[res.ToolCallID]
			if !ok || answered[id] {
				rep.orphans++
				continue
			}
			answered[id] = true
			res.ToolCallID = id
			out = append(out, res)
		}
		for _, call := range m.ToolCalls {
			if !answered[call.ID] {
				rep.answered++
				out = append(out, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleTool, ToolCallID: call.ID,
					Name: call.Function.Name, Content: stoppedResult})
			}
		}
	}
	return out, rep
}

// uniqueID derives an id from id that is not in used.
func uniqueID(id string, used map[string]bool) string {
	base := strings.TrimSpace(id)
	if base == "" {
		base = "call"
	}
	for n := 2; ; n++ {
		candidate := fmt.Sprintf("%s-r%d", base, n)
		if !used[candidate] {
			return candidate
		}
	}
}
