// Package themes holds baton's colour palettes and the lipgloss styles
// built from them. It is the only place a colour is written: the rest of
// the program asks for a style by what it means (an error, a focused
// frame, an added diff line), so a new theme is a dozen choices and
// nothing else changes.
package themes

import "github.com/charmbracelet/lipgloss"

// Palette names colours by their meaning. Hex colours degrade to the
// nearest 256- or 16-colour value and vanish under NO_COLOR (lipgloss
// picks the terminal's profile), so no style may carry meaning by colour
// alone.
type Palette struct {
	// Name is how --theme and /theme spell the palette.
	Name string
	// Text is body text; Muted is secondary text (labels, hints, stats).
	Text  lipgloss.TerminalColor
	Muted lipgloss.TerminalColor
	// Accent marks the assistant, the model and the selected item.
	Accent lipgloss.TerminalColor
	// Border draws frames and rules; Focus the frame of whatever takes keys.
	Border lipgloss.TerminalColor
	Focus  lipgloss.TerminalColor
	// Success, Warning and Error colour outcomes; Busy colours work in
	// progress (spinners, running tools).
	Success lipgloss.TerminalColor
	Warning lipgloss.TerminalColor
	Error   lipgloss.TerminalColor
	Busy    lipgloss.TerminalColor
	// Agents tells sub-agent types apart; it is cycled when there are
	// more types than colours.
	Agents []lipgloss.TerminalColor
	// Code colours code in Markdown, spans and blocks alike, so it stands
	// apart from prose without a background that breaks copying.
	Code lipgloss.TerminalColor
}
