package conversation

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/ui/convo"
	"github.com/seed-e4e525a6/baton/ui/diffview"
	"github.com/seed-e4e525a6/baton/ui/pane"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// Collapsed tool results show this many lines; ctrl+o shows them all.
const (
	collapsedOutput = 3
	collapsedDiff   = 12
)

// toolState is where a tool call is in its life.
type toolState int

const (
	toolRunning toolState = iota
	toolDone
	toolFailed
	toolInterrupted
	toolDenied // the person refused it at a permission card
)

// fill takes a call's state from its entry; a refused call shows as
// "denied" and the person's reason, not as the text the model is given.
func (b *toolCall) fill(e convo.Entry) {
	b.name, b.title, b.summary, b.output, b.diff = e.Name, e.Title, e.Summary, e.Body, e.Diff
	switch {
	case e.Denied:
		b.state = toolDenied
	case e.IsError:
		b.state = toolFailed
	case e.Done:
		b.state = toolDone
	case e.Stopped:
		b.state = toolInterrupted
	default:
		b.state = toolRunning
	}
}

// toolCall is one tool call of the main agent: one line with its status,
// then a short result or the diff of an edit.
type toolCall struct {
	name, title string
	state       toolState
	summary     string
	output      string
	diff        string
	child       *pane.Pane // the child a task call started
}

func (b *toolCall) render(rc *renderCtx, width int) []string {
	if b.child != nil && b.child.State().Finished() {
		return b.folded(rc, width)
	}
	st := rc.styles.Tool
	mark := markTool
	if b.state == toolDenied {
		mark = markDenied
	}
	line := b.markStyle(rc).Render(mark) + b.styledTitle(rc)
	switch {
	case b.state == toolRunning:
		line += st.Summary.Render(" …")
	case b.state == toolInterrupted:
		line += rc.styles.Conversation.Interrupted.Render(" (interrupted)")
	case b.state == toolDenied:
		line += rc.styles.Conversation.Interrupted.Render(" (" + b.summary + ")")
	case b.summary != "" && b.state == toolFailed:
		line += st.Failed.Render(" (" + b.summary + ")")
	case b.summary != "":
		line += st.Summary.Render(" (" + b.summary + ")")
	}
	lines := []string{termtext.Fit(line, width)}
	if b.diff != "" {
		return append(lines, b.result(rc, diffview.Lines(rc.styles, b.diff), collapsedDiff, width)...)
	}
	if out := strings.TrimSpace(b.output); b.state != toolRunning && out != "" && out != b.summary {
		out := strings.Split(strings.TrimRight(b.output, "\n"), "\n")
		style := st.Output
		if b.state == toolFailed {
			style = st.Failed
		}
		return append(lines, b.result(rc, paint(out, style), collapsedOutput, width)...)
	}
	return lines
}

// folded draws a task call whose child ended: the child's summary line,
// and once output is expanded its whole report, rendered as Markdown and
// wrapped like any answer, never cut.
func (b *toolCall) folded(rc *renderCtx, width int) []string {
	lines := []string{summaryLine(b.child, width)}
	if !rc.expanded {
		return lines
	}
	report := b.child.Conversation().Report()
	if strings.TrimSpace(report) == "" {
		report = strings.Join(humanStatus(strings.Split(strings.TrimRight(b.output, "\n"), "\n")), "\n")
	}
	if strings.TrimSpace(report) == "" {
		return lines
	}
	pad := ansi.StringWidth(markResult)
	md := rc.markdown.Render(report, width-pad)
	return append(lines, gutter(md, rc.styles.Tool.Summary.Render(markResult))...)
}

// markStyle colours the call's mark by its state.
func (b *toolCall) markStyle(rc *renderCtx) lipgloss.Style {
	switch b.state {
	case toolDone:
		return rc.styles.Tool.Done
	case toolFailed:
		return rc.styles.Tool.Failed
	case toolInterrupted, toolDenied:
		return rc.styles.Conversation.Interrupted
	}
	return rc.styles.Tool.Running
}

// styledTitle draws the call's one-line title with the tool name in bold.
func (b *toolCall) styledTitle(rc *renderCtx) string {
	st := rc.styles.Tool
	title := strings.TrimSpace(b.title)
	if rest, ok := strings.CutPrefix(title, b.name); ok && b.name != "" {
		return st.Name.Render(b.name) + st.Title.Render(rest)
	}
	if title == "" {
		return st.Name.Render(b.name)
	}
	return st.Title.Render(title)
}

// result indents styled result lines under the call, keeping the first
// few unless output is expanded.
func (b *toolCall) result(rc *renderCtx, lines []string, collapsed, width int) []string {
	hidden := 0
	if !rc.expanded && len(lines) > collapsed {
		hidden = len(lines) - collapsed
		lines = lines[:collapsed]
	}
	out := gutter(lines, rc.styles.Tool.Summary.Render(markResult))
	if hidden > 0 {
		out = append(out, rc.styles.Tool.Summary.Render("    … +"+plural(hidden, "line")+" (ctrl+o to expand)"))
	}
	for i, line := range out {
		out[i] = termtext.Fit(line, width)
	}
	return out
}

// humanStatus rewrites the engine's "status: timed_out · …" line of a
// child's result in words: "status: timed out · …".
func humanStatus(lines []string) []string {
	for i, line := range lines {
		if rest, ok := strings.CutPrefix(line, "status: "); ok {
			word, tail, _ := strings.Cut(rest, " ")
			lines[i] = strings.TrimSpace("status: " + strings.ReplaceAll(word, "_", " ") + " " + tail)
		}
	}
	return lines
}
