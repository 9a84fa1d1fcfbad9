package review

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// View draws the view at its size; no line is wider than the screen.
func (m *Across) View() string {
	lines := []string{m.acrossTitle(), m.summary(), ""}
	body := m.acrossBody()
	if m.outputShown && m.fan.Verify != nil {
		body = m.outputLines()
	}
	h := max(m.height-chrome, 1)
	start := 0
	if m.outputShown {
		start = min(m.offset, max(len(body)-h, 0))
	}
	end := min(start+h, len(body))
	if !m.outputShown && len(body) > h {
		end = start + h - 1
		body = append(body[:end:end], m.styles.Card.Label.Render(fmt.Sprintf("  … %d more lines", len(body)-end)))
		end++
	}
	lines = append(lines, body[start:end]...)
	for range h - (end - start) {
		lines = append(lines, "")
	}
	lines = append(lines, m.acrossStatus(), m.help.View(acrossHelp{m}))
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, m.width, "…")
	}
	return strings.Join(lines, "\n")
}

// acrossTitle is "Merge  3 changes wait for review".
func (m *Across) acrossTitle() string {
	n := len(m.fan.Changes)
	wait := "waits"
	if n != 1 {
		wait = "wait"
	}
	return m.styles.Card.Title.Render("Merge") + "  " + m.styles.Card.Body.Render(fmt.Sprintf("%s %s for review", event.Plural(n, "change"), wait))
}

// summary is how many are chosen and how they merge: "2 of 3 chosen ·
// 3 files · merge cleanly in order #2 → #3 · verified ✓".
func (m *Across) summary() string {
	chosen := 0
	for _, c := range m.fan.Changes {
		if c.Chosen {
			chosen++
		}
	}
	label := m.styles.Card.Label
	text := fmt.Sprintf("%d of %d chosen · %s", chosen, len(m.fan.Changes), event.Plural(len(m.fan.Files), "file"))
	line := label.Render(clean(text))
	if mark := m.mergedMark(); mark != "" {
		line += label.Render(" · merge ") + mark
	}
	return line
}

// orderLine says in which order the chosen changes merge and which are
// left out: "order #2 → #3 · #5 left out (conflict)".
func (m *Across) orderLine() string {
	st := m.styles
	var order, left []string
	for _, id := range m.fan.Order {
		order = append(order, m.number(id))
	}
	for _, l := range m.fan.Left {
		left = append(left, m.number(l.Agent))
	}
	var line string
	switch {
	case len(order) > 0:
		line = st.Card.Body.Render("order " + strings.Join(order, " → "))
	case len(left) > 0:
		line = st.Status.Warning.Render("nothing merges cleanly")
	default:
		return st.Card.Label.Render("choose changes with space")
	}
	if len(left) > 0 {
		line += st.Card.Label.Render(" · ") + st.Diff.Del.Render(strings.Join(left, " ")+" left out (conflict)")
	}
	return line
}

// mergedMark is the merged result's verification as the summary shows
// it.
func (m *Across) mergedMark() string {
	switch {
	case m.verifying:
		return m.styles.Status.Busy.Render("verifying…")
	case m.fan.Verify != nil:
		return m.verifyMark(*m.fan.Verify)
	case len(m.fan.Order) > 0 && len(m.fan.Commands) == 0:
		return m.styles.Status.Warning.Render("not verifiable")
	}
	return ""
}

// verifyMark is a verification in the success or the error colour.
func (m *Across) verifyMark(v event.Verification) string {
	if v.Passed {
		return m.styles.Diff.Add.Render(v.Mark())
	}
	return m.styles.Diff.Del.Render(v.Mark())
}

// number is a change's "#N".
func (m *Across) number(id event.AgentID) string {
	for _, c := range m.fan.Changes {
		if c.Agent == id {
			return fmt.Sprintf("#%d", c.Number)
		}
	}
	return string(id)
}

// numbers are "#2 #3".
func (m *Across) numbers(ids []event.AgentID) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = m.number(id)
	}
	return strings.Join(out, " ")
}

// acrossBody is the changes, the merged result and the files.
func (m *Across) acrossBody() []string {
	st := m.styles
	out := []string{st.Card.Label.Render("Changes")}
	for i, c := range m.fan.Changes {
		mark := "  "
		if i == m.cursor {
			mark = st.Card.Key.Render("› ")
		}
		box := "[ ] "
		if c.Chosen {
			box = "[x] "
		}
		line := mark + box + st.Card.Body.Render(fmt.Sprintf("#%d ", c.Number))
		if c.Change.Verify != nil {
			line += m.verifyMark(*c.Change.Verify) + " "
		}
		line += st.Card.Body.Render(clean(fmt.Sprintf("[%s] %s", c.AgentType, c.Description))) + "  " + st.Card.Label.Render(c.Change.Line())
		out = append(out, line)
	}
	out = append(out, "", st.Card.Label.Render("Merged result"), "  "+m.orderLine(), "  "+m.mergedLine(), "", st.Card.Label.Render("Files"))
	width := 0
	for _, f := range m.fan.Files {
		width = max(width, ansi.StringWidth(clean(f.Path)))
	}
	width = min(width, max(m.width/2, 12))
	for _, f := range m.fan.Files {
		path := ansi.Truncate(clean(f.Path), width, "…")
		line := "  " + st.Diff.File.Render(path+strings.Repeat(" ", width-ansi.StringWidth(path))) + "  " + m.numbers(f.By)
		if note := m.fileNote(f); note != "" {
			line += "  " + note
		}
		out = append(out, line)
	}
	for _, p := range m.fan.Skipped {
		out = append(out, "  "+st.Card.Label.Render(clean(p)+"  symbolic link: not applied here"))
	}
	return out
}

// fileNote says how the changes to one file merge.
func (m *Across) fileNote(f event.FanInFile) string {
	st := m.styles
	if len(f.Conflicting) > 0 {
		for _, l := range m.fan.Left {
			if l.Path == f.Path {
				with := "your edits"
				if len(l.With) > 0 {
					with = m.numbers(l.With)
				}
				return st.Diff.Del.Render(fmt.Sprintf("✗ %s conflicts with %s (%s): left out", m.number(l.Agent), with, event.Plural(l.Regions, "region")))
			}
		}
	}
	if f.Overlap() {
		return st.Status.Warning.Render("overlap, merges cleanly")
	}
	return ""
}

// mergedLine says how the merged result's verification stands.
func (m *Across) mergedLine() string {
	st := m.styles
	cmd := strings.Join(m.fan.Commands, " && ")
	switch {
	case len(m.fan.Order) == 0:
		return st.Card.Label.Render("nothing to merge")
	case len(m.fan.Commands) == 0:
		return st.Status.Warning.Render("cannot be verified: no chosen change has a verify command")
	case m.verifying:
		return st.Card.Label.Render(clean("$ "+cmd)) + "  " + st.Status.Busy.Render("running in a scratch worktree…")
	case m.fan.Verify != nil:
		return st.Card.Label.Render(clean("$ "+cmd)) + "  " + m.verifyMark(*m.fan.Verify)
	}
	return st.Card.Label.Render(clean("$ " + cmd))
}

// outputLines are the merged verification's output, shown by o.
func (m *Across) outputLines() []string {
	v := m.fan.Verify
	out := []string{m.styles.Card.Label.Render(clean("$ "+v.Command)) + "  " + m.verifyMark(*v)}
	for line := range strings.Lines(v.Output) {
		out = append(out, "  "+clean(strings.TrimRight(line, "\n")))
	}
	return out
}

// acrossStatus is the question after one A on an unverified merge, the
// last error, or what runs.
func (m *Across) acrossStatus() string {
	st := m.styles.Status
	switch {
	case m.confirming:
		return st.Warning.Render(clean("The merged result is not verified (" + m.unverifiedWhy() + "). A again applies it unverified; any other key keeps your tree."))
	case m.err != "":
		return st.Error.Render(clean(m.err))
	case m.busy:
		return st.Busy.Render("working…")
	}
	return ""
}

// unverifiedWhy says why the merge shown is not verified.
func (m *Across) unverifiedWhy() string {
	switch {
	case len(m.fan.Commands) == 0:
		return "no chosen change has a verify command"
	case m.verifying:
		return "its verification is still running"
	case m.fan.Verify == nil:
		return "its verification has not run"
	}
	return strings.TrimPrefix(m.fan.Verify.Mark(), "✗ ")
}
