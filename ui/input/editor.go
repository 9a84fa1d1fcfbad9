package input

import (
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/themes"
)

// Editor is the textarea in which a delegation's prompt is edited before
// it is approved.
type Editor struct {
	ta               textarea.Model
	width, maxHeight int
}

// NewEditor makes an empty editor; enter approves, so a newline takes
// keys.Newline.
func NewEditor(keys KeyMap) *Editor {
	ta := textarea.New()
	ta.ShowLineNumbers = false
	ta.Prompt = ""
	ta.CharLimit = 0
	ta.MaxHeight = 0
	ta.KeyMap.InsertNewline = keys.Newline
	ta.Cursor.SetMode(cursor.CursorStatic)
	return &Editor{ta: ta, width: 1, maxHeight: 1}
}

// SetStyles restyles the editor for a theme.
func (e *Editor) SetStyles(styles *themes.Styles) {
	st := textarea.Style{Base: styles.Card.Body, Text: styles.Card.Body, CursorLine: styles.Card.Body,
		Placeholder: styles.Input.Placeholder, EndOfBuffer: styles.Input.Placeholder}
	e.ta.FocusedStyle, e.ta.BlurredStyle = st, st
	e.ta.Cursor.Style = styles.Input.Prompt.Reverse(true)
}

// Open puts text, already cleaned, in the editor and gives it the keys.
func (e *Editor) Open(text string) {
	e.ta.SetValue(text)
	e.ta.Focus()
}

// Close takes the keys away.
func (e *Editor) Close() { e.ta.Blur() }

// SetSize fits the editor inside a card: as tall as its wrapped text and
// a line to grow into, never taller than height.
func (e *Editor) SetSize(width, height int) {
	e.width, e.maxHeight = max(width, 1), max(height, 1)
	e.ta.SetWidth(e.width)
	e.fitHeight()
}

// fitHeight follows the text's wrapped height as it is edited.
func (e *Editor) fitHeight() {
	rows := 1
	for _, line := range strings.Split(e.ta.Value(), "\n") {
		rows += max(1, (ansi.StringWidth(line)+e.width-1)/e.width)
	}
	e.ta.SetHeight(min(rows, e.maxHeight))
}

// Value is the edited text.
func (e *Editor) Value() string { return e.ta.Value() }

// Update lets the textarea handle a key.
func (e *Editor) Update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	e.ta, cmd = e.ta.Update(msg)
	e.fitHeight()
	return cmd
}

// View draws the editor.
func (e *Editor) View() string { return e.ta.View() }
