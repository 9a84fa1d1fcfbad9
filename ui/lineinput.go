package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/textarea"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/themes"

	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// lineInput is a one-line box with a label: the reason given with a
// denial, or a message for a running child. Each job has its own, so a
// card that interrupts a message never clobbers its text.
type lineInput struct {
	ti     textinput.Model
	label  string
	width  int
	styles *themes.Styles
}

func newLineInput(label, placeholder string) *lineInput {
	ti := textinput.New()
	ti.Prompt = ""
	ti.Placeholder = placeholder
	ti.Cursor.SetMode(cursor.CursorStatic) // the spinner is the only clock
	return &lineInput{ti: ti, label: label}
}

// setStyles restyles the box for a theme.
func (l *lineInput) setStyles(styles *themes.Styles) {
	l.styles = styles
	l.ti.TextStyle, l.ti.PlaceholderStyle = styles.Input.Text, styles.Input.Placeholder
	l.ti.Cursor.Style = styles.Input.Prompt.Reverse(true)
}

// open empties the box (or fills it with text) and gives it the keys.
func (l *lineInput) open(text string) {
	l.ti.SetValue(text)
	l.ti.CursorEnd()
	l.ti.Focus()
}

// focus gives the keys back without touching the text; blur takes them.
func (l *lineInput) focus() { l.ti.Focus() }
func (l *lineInput) blur()  { l.ti.Blur() }

// value is the text typed so far.
func (l *lineInput) value() string { return l.ti.Value() }

// update lets the box handle a key.
func (l *lineInput) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	l.ti, cmd = l.ti.Update(msg)
	return cmd
}

// setWidth fits the label and box in width cells; the box scrolls
// sideways when the text is longer.
func (l *lineInput) setWidth(width int) {
	l.width = width
	l.ti.Width = max(width-ansi.StringWidth(l.label)-4, 1)
}

// view draws the label and the box.
func (l *lineInput) view() string {
	return fit(l.styles.Input.Prompt.Render(l.label+" › ")+l.ti.View(), l.width)
}

// promptEditor is the textarea in which a delegation's prompt is edited
// before it is approved.
type promptEditor struct {
	ta               textarea.Model
	width, maxHeight int
}

func newPromptEditor(keys KeyMap) *promptEditor {
	ta := textarea.New()
	ta.ShowLineNumbers = false
	ta.Prompt = ""
	ta.CharLimit = 0
	ta.MaxHeight = 0
	ta.KeyMap.InsertNewline = keys.Newline // enter approves
	ta.Cursor.SetMode(cursor.CursorStatic)
	return &promptEditor{ta: ta, width: 1, maxHeight: 1}
}

// setStyles restyles the editor for a theme.
func (e *promptEditor) setStyles(styles *themes.Styles) {
	st := textarea.Style{Base: styles.Card.Body, Text: styles.Card.Body, CursorLine: styles.Card.Body,
		Placeholder: styles.Input.Placeholder, EndOfBuffer: styles.Input.Placeholder}
	e.ta.FocusedStyle, e.ta.BlurredStyle = st, st
	e.ta.Cursor.Style = styles.Input.Prompt.Reverse(true)
}

// open puts text in the editor and gives it the keys.
func (e *promptEditor) open(text string) {
	e.ta.SetValue(termtext.Clean(text))
	e.ta.Focus()
}

// close takes the keys away.
func (e *promptEditor) close() { e.ta.Blur() }

// setSize fits the editor inside a card: as tall as its wrapped text
// and a line to grow into, never taller than height.
func (e *promptEditor) setSize(width, height int) {
	e.width, e.maxHeight = max(width, 1), max(height, 1)
	e.ta.SetWidth(e.width)
	e.fitHeight()
}

// fitHeight follows the text's wrapped height as it is edited.
func (e *promptEditor) fitHeight() {
	rows := 1
	for _, line := range strings.Split(e.ta.Value(), "\n") {
		rows += max(1, (ansi.StringWidth(line)+e.width-1)/e.width)
	}
	e.ta.SetHeight(min(rows, e.maxHeight))
}

// value is the edited text.
func (e *promptEditor) value() string { return e.ta.Value() }

// update lets the textarea handle a key.
func (e *promptEditor) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	e.ta, cmd = e.ta.Update(msg)
	e.fitHeight()
	return cmd
}

// lines draws the editor.
func (e *promptEditor) lines() []string {
	return strings.Split(e.ta.View(), "\n")
}
