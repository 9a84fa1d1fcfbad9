package ui

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/seed-e4e525a6/baton/ui/convo"
	"github.com/seed-e4e525a6/baton/ui/status"

	tea "github.com/charmbracelet/bubbletea"
)

// maxCopyBytes bounds what /copy sends: terminals drop OSC 52 payloads
// much past this, silently.
const maxCopyBytes = 74 << 10

// Copy puts text on the system clipboard through the terminal (OSC 52),
// which works over SSH and inside tmux (with set-clipboard on). The
// terminal decides whether to allow it; nothing comes back to say so.
func (t *Terminal) Copy(text string) error {
	if t == nil {
		return errors.New("no terminal to copy through")
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	_, err := io.WriteString(t.out, "\x1b]52;c;"+base64.StdEncoding.EncodeToString([]byte(text))+"\x07")
	return err
}

// copiedMsg reports a finished /copy.
type copiedMsg struct {
	what string
	n    int
	err  error
}

// cmdCopy is /copy (the last answer) and /copy code (the last fenced code
// block of the answers).
func (m *Model) cmdCopy(arg string) tea.Cmd {
	var text, what string
	switch arg {
	case "":
		text, what = m.conv.lastAnswer(), "the last answer"
	case "code":
		text, what = lastCodeBlock(m.conv.answers()), "the last code block"
	default:
		m.status.Set(status.Error, "copy: /copy copies the last answer, /copy code its last code block")
		return nil
	}
	switch {
	case text == "":
		m.status.Set(status.Error, "copy: there is no "+strings.TrimPrefix(what, "the ")+" yet")
		return nil
	case len(text) > maxCopyBytes:
		m.status.Set(status.Error, fmt.Sprintf("copy: %s is %d KB, more than terminals take through OSC 52 (%d KB)", what, len(text)>>10, maxCopyBytes>>10))
		return nil
	}
	term := m.opts.Terminal
	return func() tea.Msg {
		return copiedMsg{what: what, n: len([]rune(text)), err: term.Copy(text)}
	}
}

// copied says what /copy did.
func (m *Model) copied(msg copiedMsg) {
	if msg.err != nil {
		m.status.Set(status.Error, "copy: "+msg.err.Error())
		return
	}
	m.status.Set(status.Info, fmt.Sprintf("copied %s (%s) to the clipboard via OSC 52", msg.what, plural(msg.n, "character")))
}

// answers are the main agent's messages, oldest first, as sent.
func (c *conversation) answers() []string {
	var out []string
	for i := range c.main.Len() {
		if e := c.main.At(i); e.Kind == convo.Text && strings.TrimSpace(e.Body) != "" {
			out = append(out, e.Body)
		}
	}
	return out
}

// lastAnswer is the newest answer, "" before any.
func (c *conversation) lastAnswer() string {
	all := c.answers()
	if len(all) == 0 {
		return ""
	}
	return strings.TrimSpace(all[len(all)-1])
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
