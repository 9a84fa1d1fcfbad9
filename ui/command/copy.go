package command

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/status"
)

// copyCommand is /copy.
func copyCommand() Command {
	return Command{Name: "copy", Args: "[code]", Desc: "copy the last answer, or its last code block, to the clipboard", Run: copyAnswer}
}

// maxCopyBytes bounds what /copy sends: terminals drop OSC 52 payloads
// much past this, silently.
const maxCopyBytes = 74 << 10

// copyAnswer is /copy (the last answer) and /copy code (the last fenced
// code block of the answers), put on the clipboard through the terminal.
func copyAnswer(env *Env, arg string) tea.Cmd {
	var text, what string
	answers := env.Answers()
	switch arg {
	case "":
		if len(answers) > 0 {
			text = strings.TrimSpace(answers[len(answers)-1])
		}
		what = "the last answer"
	case "code":
		text, what = lastCodeBlock(answers), "the last code block"
	default:
		env.Status.Set(status.Error, "copy: /copy copies the last answer, /copy code its last code block")
		return nil
	}
	switch {
	case text == "":
		env.Status.Set(status.Error, "copy: there is no "+strings.TrimPrefix(what, "the ")+" yet")
		return nil
	case len(text) > maxCopyBytes:
		env.Status.Set(status.Error, fmt.Sprintf("copy: %s is %d KB, more than terminals take through OSC 52 (%d KB)", what, len(text)>>10, maxCopyBytes>>10))
		return nil
	}
	copyText := env.Options.Copy
	return func() tea.Msg {
		if err := copyText(text); err != nil {
			return status.Said{Level: status.Error, Text: "copy: " + err.Error()}
		}
		return Result{Say: fmt.Sprintf("copied %s (%s) to the clipboard via OSC 52", what, event.Plural(len([]rune(text)), "character"))}
	}
}

// lastCodeBlock is the content of the newest closed fenced code block
// (``` or ~~~) in answers, "" when there is none.
func lastCodeBlock(answers []string) string {
	for i := len(answers) - 1; i >= 0; i-- {
		var last, cur []string
		fence, found := "", false
		for _, line := range strings.Split(answers[i], "\n") {
			trimmed := strings.TrimSpace(line)
			switch {
			case fence == "" && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")):
				fence, cur = trimmed[:3], nil
			case fence != "" && trimmed == fence:
				last, fence, found = cur, "", true
			case fence != "":
				cur = append(cur, line)
			}
		}
		if found {
			return strings.Join(last, "\n")
		}
	}
	return ""
}
