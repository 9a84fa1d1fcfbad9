package input

import (
	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// Line is a one-line box with a label: the reason given with a denial,
// or a message for a running child. Each job has its own, so a card that
// interrupts a message never clobbers its text.
type Line struct {
	ti     textinput.Model
	label  string
	width  int
	styles *themes.Styles
}

// NewLine makes an empty line labelled label.
func NewLine(label, placeholder string) *Line {
	ti := textinput.New()
	ti.Prompt = ""
	ti.Placeholder = placeholder
	ti.Cursor.SetMode(cursor.CursorStatic) // the spinner is the only clock
	return &Line{ti: ti, label: label}
}

// SetStyles restyles the box for a theme.
func (l *Line) SetStyles(styles *themes.Styles) {
	l.styles = styles
	l.ti.TextStyle, l.ti.PlaceholderStyle = styles.Input.Text, styles.Input.Placeholder
	l.ti.Cursor.Style = styles.Input.Prompt.Reverse(true)
}

// Open empties the box (or fills it with text) and gives it the keys.
func (l *Line) Open(text string) {
	l.ti.SetValue(text)
	l.ti.CursorEnd()
	l.ti.Focus()
}

// Focus gives the keys back without touching the text.
func (l *Line) Focus() { l.ti.Focus() }

// Blur takes the keys away.
func (l *Line) Blur() { l.ti.Blur() }

// Value is the text typed so far.
func (l *Line) Value() string { return l.ti.Value() }

// Update lets the box handle a key.
func (l *Line) Update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	l.ti, cmd = l.ti.Update(msg)
	return cmd
}

// SetSize fits the label and box in width cells; the box scrolls
// sideways when the text is longer.
func (l *Line) SetSize(width int) {
	l.width = width
	l.ti.Width = max(width-ansi.StringWidth(l.label)-4, 1)
}

// View draws the label and the box.
func (l *Line) View() string {
	return termtext.Fit(l.styles.Input.Prompt.Render(l.label+" › ")+l.ti.View(), l.width)
}

// SetLabel names what the line is for now, such as the child a message
// goes to.
func (l *Line) SetLabel(label string) {
	l.label = label
	l.SetSize(l.width)
}
