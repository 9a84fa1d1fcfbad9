// Package input is the prompt box: a multi-line textarea that grows with
// its text, the history of sent prompts, the messages queued while a turn
// runs and the completion popup; and the one-line boxes and the prompt
// editor the cards and panes open. Each owns its text, so a card that
// interrupts typing never clobbers it.
package input

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// Box limits: it grows with its text up to MaxLines, and at most
// maxQueuedShown queued messages are listed above it.
const (
	MaxLines       = 8
	maxQueuedShown = 3
)

// Model is the prompt box.
type Model struct {
	ta       textarea.Model
	measure  textarea.Model // wraps like ta, to count its rows
	keys     KeyMap
	styles   *themes.Styles
	width    int
	history  []string
	browse   int // index into history while walking it; len(history) otherwise
	queue    []string
	complete func(value string) []Candidate
	pick     int     // selected completion
	dismiss  string  // the value whose popup esc closed
	search   *search // ctrl+r's search, while open
	// pastes are the large pastes the box shows as tokens; sent is the
	// last prompt Accept returned and the box it was read from, so a
	// prompt given back (Restore) comes back as it was typed.
	pastes []paste
	files  files // what @ completes from
	sent   struct {
		text, box string
		pastes    []paste
	}
	// box is the framed textarea as last drawn, "" once anything it is
	// drawn from changed: every frame draws the box, and while an answer
	// streams nothing in it changes.
	box string
}

// New makes an empty, focused box. complete lists what the text typed so
// far could become; it may be nil.
func New(keys KeyMap, complete func(string) []Candidate) *Model {
	ta := textarea.New()
	ta.ShowLineNumbers = false
	ta.Placeholder = "Ask baton anything · / commands · @ files · ! shell"
	ta.CharLimit = 0
	ta.MaxHeight = MaxLines
	ta.SetPromptFunc(2, func(line int) string {
		if line == 0 {
			return "> "
		}
		return "  "
	})
	// enter sends and home/end scroll the conversation, so the textarea
	// keeps only its other keys for these jobs.
	ta.KeyMap.InsertNewline = keys.Newline
	ta.KeyMap.LineStart = key.NewBinding(key.WithKeys("ctrl+a"))
	ta.KeyMap.LineEnd = key.NewBinding(key.WithKeys("ctrl+e"))
	ta.Cursor.SetMode(cursor.CursorStatic) // the spinner is the only clock
	ta.SetHeight(1)
	m := &Model{ta: ta, measure: newMeasure(), keys: keys, complete: complete}
	m.Focus()
	return m
}

// SetStyles restyles the box for a theme.
func (m *Model) SetStyles(styles *themes.Styles) {
	m.styles, m.box = styles, ""
	st := textarea.Style{
		Base: styles.Input.Text, Text: styles.Input.Text, CursorLine: styles.Input.Text,
		Placeholder: styles.Input.Placeholder, Prompt: styles.Input.Prompt,
		EndOfBuffer: styles.Input.Placeholder, LineNumber: styles.Input.Placeholder,
		CursorLineNumber: styles.Input.Placeholder,
	}
	m.ta.FocusedStyle, m.ta.BlurredStyle = st, st
	m.ta.Cursor.Style = styles.Input.Prompt.Reverse(true)
	if m.ta.Focused() {
		m.ta.Focus() // the textarea picks its style up on focus changes
	} else {
		m.ta.Blur()
	}
}

// Focus gives the box the keys; its static cursor needs no Cmd.
func (m *Model) Focus() { m.ta.Focus(); m.box = "" }

// Blur takes the keys away, for a card or a pane.
func (m *Model) Blur() { m.ta.Blur(); m.box = "" }

// Focused says whether the box has the keys.
func (m *Model) Focused() bool { return m.ta.Focused() }

// Value is the text in the box; Empty says whether there is none.
func (m *Model) Value() string { return m.ta.Value() }

// Empty says whether the box holds no text.
func (m *Model) Empty() bool { return m.ta.Value() == "" }

// SetSize fits the box, inside its frame, to the terminal width.
func (m *Model) SetSize(width int) {
	m.width = width
	m.ta.SetWidth(max(width-4, 4))
	m.measure.SetWidth(max(width-4, 4))
	m.fitHeight()
}

// Update handles a key meant for the box: the popup's, the history's,
// or editing. Enter is the root's: see Accept.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	m.box = ""
	if f, ok := msg.(FilesMsg); ok {
		m.filesLoaded(f)
		return nil
	}
	k, isKey := msg.(tea.KeyMsg)
	if isKey && m.search != nil {
		m.searchKey(k)
		return nil
	}
	popup := m.PopupOpen()
	switch {
	case !isKey:
	case popup && key.Matches(k, m.keys.Complete):
		m.choose()
		return nil
	case popup && key.Matches(k, m.keys.HistoryPrev):
		m.movePick(-1)
		return nil
	case popup && key.Matches(k, m.keys.HistoryNext):
		m.movePick(1)
		return nil
	case popup && key.Matches(k, m.keys.Dismiss):
		m.dismiss = m.Value()
		return nil
	case key.Matches(k, m.keys.Search):
		m.StartSearch()
		return nil
	case key.Matches(k, m.keys.HistoryPrev) && m.walking():
		m.older()
		return nil
	case key.Matches(k, m.keys.HistoryNext) && m.walking():
		m.newer()
		return nil
	case m.collapsePaste(k):
		m.fitHeight()
		return nil
	case key.Matches(k, m.ta.KeyMap.DeleteCharacterBackward) && m.dropPasteBeforeCursor():
		m.fitHeight()
		return nil
	}
	var cmd tea.Cmd
	m.ta, cmd = m.ta.Update(msg)
	m.fitHeight()
	return tea.Batch(cmd, m.loadFiles())
}

// Accept acts on enter: a partly typed command is completed from the
// popup (and taken at once only if it needs no arguments); otherwise the
// box is emptied and its text, with its pastes in full and recorded in
// the history, returned.
func (m *Model) Accept() string {
	if c, ok := m.Selected(); ok && strings.TrimSpace(m.Value()) != strings.TrimSpace(c.Text) {
		m.choose()
		if !c.Complete {
			return ""
		}
	}
	box := m.ta.Value()
	text := strings.TrimSpace(m.expandPastes(box))
	m.sent.text, m.sent.box, m.sent.pastes = text, box, m.pastes
	m.ta.Reset()
	m.pastes = nil
	m.fitHeight()
	if text != "" && (len(m.history) == 0 || m.history[len(m.history)-1] != text) {
		m.history = append(m.history, text)
	}
	m.browse = len(m.history)
	return text
}

// Set replaces the text, cursor at the end; pastes shown as tokens go
// with the text they were in.
func (m *Model) Set(text string) {
	m.ta.SetValue(text)
	if text == "" {
		m.pastes = nil
	}
	m.fitHeight()
}

// Restore gives back a prompt that could not be sent, before whatever
// was typed since: as it was in the box, pastes as their tokens, when it
// is the last one sent.
func (m *Model) Restore(text string) {
	if text == m.sent.text && m.sent.box != "" {
		text = m.sent.box
		for _, p := range m.sent.pastes {
			if !m.pasteNamed(p.token) {
				m.pastes = append(m.pastes, p)
			}
		}
	}
	if !m.Empty() {
		text += "\n" + m.Value()
	}
	m.ta.SetValue(text)
	m.fitHeight()
}

// SetHistory replaces the history before the first key: the project's
// prompts from earlier runs, then a resumed session's own.
func (m *Model) SetHistory(h []string) { m.history, m.browse = h, len(h) }

// Enqueue keeps a message for when the turn ends; Dequeue takes the
// oldest.
func (m *Model) Enqueue(text string) { m.queue = append(m.queue, text) }

// Dequeue takes the oldest queued message.
func (m *Model) Dequeue() (string, bool) {
	if len(m.queue) == 0 {
		return "", false
	}
	next := m.queue[0]
	m.queue = m.queue[1:]
	return next, true
}

// Queued is how many messages wait for the turn to end.
func (m *Model) Queued() int { return len(m.queue) }

// Height is how many lines View takes: the queued messages shown, the
// box's rows and its frame. It is computed, never measured by drawing.
func (m *Model) Height() int {
	if m.search != nil {
		return 3
	}
	queued := min(len(m.queue), maxQueuedShown+1)
	return queued + m.ta.Height() + 2
}

// View draws the queued messages, then the framed box.
func (m *Model) View() string {
	if m.search != nil {
		return m.searchView()
	}
	st := m.styles.Input
	var lines []string
	for i, text := range m.queue {
		if i == maxQueuedShown {
			lines = append(lines, st.Queued.Render("  … "+event.Plural(len(m.queue)-i, "more message")))
			break
		}
		first, _, _ := strings.Cut(termtext.Clean(text), "\n")
		lines = append(lines, termtext.Fit(st.Queued.Render("  queued › "+first), m.width))
	}
	if m.box == "" {
		frame := st.Frame
		if m.ta.Focused() {
			frame = st.FocusedFrame
		}
		m.box = frame.Width(max(m.width-2, 1)).Render(m.ta.View())
	}
	lines = append(lines, m.box)
	return strings.Join(lines, "\n")
}

// History is the prompts ↑ walks, oldest first.
func (m *Model) History() []string { return slices.Clone(m.history) }
