package themes

import "github.com/charmbracelet/lipgloss"

// Styles is every style the UI draws with, grouped by the region of the
// screen that uses it. The root model holds one value; switching theme
// builds a new one, so there is no global current theme.
type Styles struct {
	Palette      Palette
	Header       HeaderStyles
	Conversation ConversationStyles
	Tool         ToolStyles
	Diff         DiffStyles
	Card         CardStyles
	Input        InputStyles
	Completion   CompletionStyles
	Help         HelpStyles
	Status       StatusStyles
	Pane         PaneStyles
	Markdown     MarkdownStyles
}

// HeaderStyles draw the top line: folder, model, tokens, cost.
type HeaderStyles struct {
	Title, Folder, Model, Stats, Demo, Rule lipgloss.Style
}

// ConversationStyles draw the transcript of the main agent.
type ConversationStyles struct {
	UserLabel, User, AssistantLabel, Assistant, Reasoning lipgloss.Style
	Interrupted, Error, Info                              lipgloss.Style
}

// ToolStyles draw one tool call line and its result. Running, Done and
// Failed colour the call's mark.
type ToolStyles struct {
	Running, Done, Failed, Name, Title, Summary, Output lipgloss.Style
}

// DiffStyles colour a unified diff line by its first character.
type DiffStyles struct {
	Add, Del, Hunk, File, Context lipgloss.Style
}

// CardStyles draw a modal approval card.
type CardStyles struct {
	Frame, Title, Label, Body, Key lipgloss.Style
}

// InputStyles draw the prompt box and what waits in the queue.
type InputStyles struct {
	Frame, FocusedFrame, Prompt, Text, Placeholder, Queued lipgloss.Style
}

// CompletionStyles draw the slash-command popup.
type CompletionStyles struct {
	Frame, Item, Selected, Desc lipgloss.Style
}

// HelpStyles draw the key help footer.
type HelpStyles struct {
	Key, Desc, Sep lipgloss.Style
}

// StatusStyles draw the one-line status above the input.
type StatusStyles struct {
	Info, Warning, Error, Busy lipgloss.Style
}

// PaneStyles draw a sub-agent's pane; Agent picks its type's colour.
// Cursor marks the focused pane. The state styles colour a pane's mark
// and status apart: Busy while it works, Waiting while it needs the
// person, then Done, Failed, Limited (timed out, max steps), Stopped
// (stopped, interrupted) or Denied.
type PaneStyles struct {
	Frame, Focused, Title, Muted                                  lipgloss.Style
	Cursor, Busy, Waiting, Done, Failed, Limited, Stopped, Denied lipgloss.Style
}

// MarkdownStyles draw a rendered Markdown message. Emphasis and Strong
// add to the style around them, so they carry no colour of their own.
// Marker draws bullets and numbers; Rule draws thematic breaks, the quote
// bar, table borders and the mark of a code line that goes on.
type MarkdownStyles struct {
	Text, Heading1, Heading, Emphasis, Strong, Code, CodeBlock lipgloss.Style
	Link, URL, Quote, Marker, Rule, TableHeader                lipgloss.Style
}

// New builds the styles of a palette.
func New(p Palette) Styles {
	fg := func(c lipgloss.TerminalColor) lipgloss.Style { return lipgloss.NewStyle().Foreground(c) }
	frame := func(c lipgloss.TerminalColor) lipgloss.Style {
		return lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(c)
	}
	return Styles{
		Palette: p,
		Header: HeaderStyles{
			Title: fg(p.Accent).Bold(true), Folder: fg(p.Text), Model: fg(p.Accent),
			Stats: fg(p.Muted), Demo: fg(p.Warning).Bold(true), Rule: fg(p.Border),
		},
		Conversation: ConversationStyles{
			UserLabel: fg(p.Focus).Bold(true), User: fg(p.Text),
			AssistantLabel: fg(p.Accent).Bold(true), Assistant: fg(p.Text),
			Reasoning: fg(p.Muted).Italic(true), Interrupted: fg(p.Warning),
			Error: fg(p.Error), Info: fg(p.Muted),
		},
		Tool: ToolStyles{
			Running: fg(p.Busy), Done: fg(p.Success), Failed: fg(p.Error),
			Name: fg(p.Text).Bold(true), Title: fg(p.Text), Summary: fg(p.Muted), Output: fg(p.Muted),
		},
		Diff: DiffStyles{
			Add: fg(p.Success), Del: fg(p.Error), Hunk: fg(p.Accent), File: fg(p.Text).Bold(true), Context: fg(p.Muted),
		},
		Card: CardStyles{
			Frame: frame(p.Focus).Padding(0, 1), Title: fg(p.Focus).Bold(true),
			Label: fg(p.Muted), Body: fg(p.Text), Key: fg(p.Accent).Bold(true),
		},
		Input: InputStyles{
			Frame: frame(p.Border).Padding(0, 1), FocusedFrame: frame(p.Focus).Padding(0, 1),
			Prompt: fg(p.Focus).Bold(true), Text: fg(p.Text), Placeholder: fg(p.Muted), Queued: fg(p.Muted).Italic(true),
		},
		Completion: CompletionStyles{
			Frame: frame(p.Border), Item: fg(p.Text), Selected: fg(p.Accent).Bold(true).Reverse(true), Desc: fg(p.Muted),
		},
		Help: HelpStyles{Key: fg(p.Accent), Desc: fg(p.Muted), Sep: fg(p.Border)},
		Status: StatusStyles{
			Info: fg(p.Muted), Warning: fg(p.Warning), Error: fg(p.Error), Busy: fg(p.Busy),
		},
		Pane: PaneStyles{
			Frame: frame(p.Border), Focused: frame(p.Focus), Title: fg(p.Text).Bold(true), Muted: fg(p.Muted),
			Cursor: fg(p.Focus).Bold(true), Busy: fg(p.Busy), Waiting: fg(p.Warning).Bold(true), Done: fg(p.Success),
			Failed: fg(p.Error), Limited: fg(p.Warning), Stopped: fg(p.Muted), Denied: fg(p.Focus),
		},
		Markdown: MarkdownStyles{
			Text: fg(p.Text), Heading1: fg(p.Accent).Bold(true).Underline(true), Heading: fg(p.Accent).Bold(true),
			Emphasis: lipgloss.NewStyle().Italic(true), Strong: lipgloss.NewStyle().Bold(true),
			Code: fg(p.Code), CodeBlock: fg(p.Code), Link: fg(p.Accent).Underline(true), URL: fg(p.Muted),
			Quote: fg(p.Muted).Italic(true), Marker: fg(p.Accent), Rule: fg(p.Border), TableHeader: lipgloss.NewStyle().Bold(true),
		},
	}
}

// Agent is the style of the i-th agent type's label; colours repeat when
// there are more types than the palette holds.
func (s Styles) Agent(i int) lipgloss.Style {
	style := lipgloss.NewStyle().Bold(true)
	if n := len(s.Palette.Agents); n > 0 {
		style = style.Foreground(s.Palette.Agents[(i%n+n)%n])
	}
	return style
}
