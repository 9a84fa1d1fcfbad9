package child

import (
	"fmt"
	"strings"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
)

// formatResult is what the parent receives as the task tool's result:
// the child's text cut to limit characters with a marker, then a status
// line built from what happened at run time, then what the person did
// to the child, one "[person: …]" line each.
func formatResult(res agent.Result, person []string, limit int) string {
	var b strings.Builder
	text := strings.TrimSpace(res.Text)
	if text == "" {
		text = "(the sub-agent produced no text)"
	}
	b.WriteString(agent.Truncate(text, limit))
	b.WriteString("\n\n")
	fmt.Fprintf(&b, "status: %s · %s", res.Status, res.Stats.Line())
	if res.Status != event.StatusCompleted && res.Reason != "" {
		fmt.Fprintf(&b, "\nreason: %s", res.Reason)
	}
	for _, note := range res.Notes {
		fmt.Fprintf(&b, "\nnote: %s", note)
	}
	for _, note := range person {
		b.WriteString("\n" + note)
	}
	return b.String()
}
