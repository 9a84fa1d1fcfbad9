package llmtest

import "fmt"

// StrictHistory returns what a strict provider would reject in the
// request's messages, or nil: every tool message must sit in the run of
// tool messages right after the assistant message that made its call,
// every call must get exactly one result, and no call id may repeat.
func (r *Request) StrictHistory() error {
	used := map[string]bool{}
	open := map[string]bool{} // calls of the last assistant message, unanswered
	inResults := false        // the previous message was that assistant or one of its results
	for i, m := range r.Body.Messages {
		if m.Role == "tool" {
			if !inResults || !open[m.ToolCallID] {
				return fmt.Errorf("message %d: tool result %q does not follow an assistant message with that call id", i, m.ToolCallID)
			}
			delete(open, m.ToolCallID)
			continue
		}
		if len(open) > 0 {
			return fmt.Errorf("message %d: calls %v have no result", i, keys(open))
		}
		inResults = m.Role == "assistant" && len(m.ToolCalls) > 0
		for _, c := range m.ToolCalls {
			if used[c.ID] {
				return fmt.Errorf("message %d: call id %q repeats an earlier one", i, c.ID)
			}
			used[c.ID], open[c.ID] = true, true
		}
	}
	if len(open) > 0 {
		return fmt.Errorf("the last calls %v have no result", keys(open))
	}
	return nil
}

// keys lists a set's members.
func keys(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	return out
}
