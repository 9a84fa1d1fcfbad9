package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/themes"

	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// Input box limits: it grows with its text up to maxInputLines, and at
// most maxQueuedShown queued messages are listed above it.
const (
	maxInputLines  = 8
	maxQueuedShown = 3
)

// input is the prompt box: a multi-line textarea, the history of sent
// prompts, the messages queued while the agent works, and the state of
// the slash-command popup.
type input struct {
	ta        textarea.Model
	measure   textarea.Model // wraps like ta, to count its rows
	styles    *themes.Styles
	history   []string
	browse    int // index into history while walking it; len(history) otherwise
	queue     []string
	pick      int                  // selected completion
	dismissed string               // the value whose popup esc closed
	children  func() []childRef    // the children /subagents completes
	custom    []agenttypes.Command // custom slash commands, cleaned
}

func newInput(keys KeyMap) *input {
	ta := textarea.New()
	ta.ShowLineNumbers = false
	ta.Placeholder = "Ask baton anything · / for commands"
	ta.CharLimit = 0
	ta.MaxHeight = maxInputLines
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
	return &input{ta: ta, measure: newMeasure()}
}

// setStyles restyles the box for a theme.
func (in *input) setStyles(styles *themes.Styles) {
	in.styles = styles
	st := textarea.Style{
		Base: styles.Input.Text, Text: styles.Input.Text, CursorLine: styles.Input.Text,
		Placeholder: styles.Input.Placeholder, Prompt: styles.Input.Prompt,
		EndOfBuffer: styles.Input.Placeholder, LineNumber: styles.Input.Placeholder,
		CursorLineNumber: styles.Input.Placeholder,
	}
	in.ta.FocusedStyle, in.ta.BlurredStyle = st, st
	in.ta.Cursor.Style = styles.Input.Prompt.Reverse(true)
	if in.ta.Focused() {
		in.ta.Focus() // the textarea picks its style up on focus changes
	} else {
		in.ta.Blur()
	}
}

// focus gives the box the keys; its static cursor needs no Cmd.
func (in *input) focus() { in.ta.Focus() }

// blur takes the keys away, for a card.
func (in *input) blur() { in.ta.Blur() }

// value is the text in the box; empty says whether there is none.
func (in *input) value() string { return in.ta.Value() }
func (in *input) empty() bool   { return in.ta.Value() == "" }

// setWidth fits the box, inside its frame, to the terminal width.
func (in *input) setWidth(width int) {
	in.ta.SetWidth(max(width-4, 4))
	in.measure.SetWidth(max(width-4, 4))
	in.fitHeight()
}

// update lets the textarea handle a key or message.
func (in *input) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	in.ta, cmd = in.ta.Update(msg)
	in.fitHeight()
	return cmd
}

// take empties the box and records what it held in the history.
func (in *input) take() string {
	text := strings.TrimSpace(in.ta.Value())
	in.ta.Reset()
	in.fitHeight()
	if text != "" && (len(in.history) == 0 || in.history[len(in.history)-1] != text) {
		in.history = append(in.history, text)
	}
	in.browse = len(in.history)
	return text
}

// set replaces the text, cursor at the end.
func (in *input) set(text string) {
	in.ta.SetValue(text)
	in.fitHeight()
}

// restore gives back a prompt that could not be sent.
func (in *input) restore(text string) {
	if !in.empty() {
		text += "\n" + in.value()
	}
	in.set(text)
}

// walking says whether up/down walk the history: the box is empty, or
// still holds the entry the walk put there.
func (in *input) walking() bool {
	if in.empty() {
		return true
	}
	return in.browse < len(in.history) && in.value() == in.history[in.browse]
}

// older and newer step through the history; past the newest the box is
// empty again.
func (in *input) older() {
	if in.empty() {
		in.browse = len(in.history)
	}
	if in.browse > 0 {
		in.browse--
		in.set(in.history[in.browse])
	}
}

func (in *input) newer() {
	if in.browse >= len(in.history) {
		return
	}
	in.browse++
	if in.browse == len(in.history) {
		in.set("")
		return
	}
	in.set(in.history[in.browse])
}

// enqueue keeps a message for when the turn ends; dequeue takes the
// oldest.
func (in *input) enqueue(text string) { in.queue = append(in.queue, text) }

func (in *input) dequeue() (string, bool) {
	if len(in.queue) == 0 {
		return "", false
	}
	next := in.queue[0]
	in.queue = in.queue[1:]
	return next, true
}

// view draws the queued messages, then the framed box.
func (in *input) view(width int) []string {
	st := in.styles.Input
	var lines []string
	for i, text := range in.queue {
		if i == maxQueuedShown {
			lines = append(lines, st.Queued.Render("  … "+plural(len(in.queue)-i, "more message")))
			break
		}
		first, _, _ := strings.Cut(termtext.Clean(text), "\n")
		lines = append(lines, fit(st.Queued.Render("  queued › "+first), width))
	}
	frame := st.Frame
	if in.ta.Focused() {
		frame = st.FocusedFrame
	}
	box := frame.Width(max(width-2, 1)).Render(in.ta.View())
	return append(lines, strings.Split(box, "\n")...)
}
