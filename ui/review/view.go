package review

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// chrome is the lines around the body: title, source, blank, status and
// help.
const chrome = 5

// View draws the review at its size; no line is wider than the screen.
func (m *Model) View() string {
	lines := []string{m.title(), m.source(), ""}
	body := m.body()
	if m.verifyShown && m.review.Verify != nil {
		body = m.verifyLines()
	}
	if m.conflict != nil {
		body = m.conflictLines()
	}
	h := m.bodyHeight()
	start := min(m.offset, max(len(body)-h, 0))
	if m.conflict != nil {
		start = 0
	}
	end := min(start+h, len(body))
	lines = append(lines, body[start:end]...)
	for range h - (end - start) {
		lines = append(lines, "")
	}
	lines = append(lines, m.statusLine(), m.help.View(helpKeys{m}))
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, m.width, "…")
	}
	return strings.Join(lines, "\n")
}

// bodyHeight is the lines left for files and hunks.
func (m *Model) bodyHeight() int { return max(m.height-chrome, 1) }

// title names the child: "Review  [General] edit the parser".
func (m *Model) title() string {
	st := m.styles
	return st.Card.Title.Render("Review") + "  " + st.Card.Body.Render(clean("["+m.review.AgentType+"] "+m.review.Description))
}

// source says where the change comes from and how far the review got.
func (m *Model) source() string {
	decided, total := 0, 0
	for _, f := range m.review.Files {
		n := max(len(f.Hunks), 1)
		total += n
		if !f.Pending() && len(f.Hunks) == 0 {
			decided++
		}
		for _, h := range f.Hunks {
			if h.Decision != event.DecisionPending {
				decided++
			}
		}
	}
	text := fmt.Sprintf("%s · %d of %d decided · from %s", event.Plural(len(m.review.Files), "file"), decided, total, m.review.From)
	line := m.styles.Card.Label.Render(clean(text))
	if v := m.review.Verify; v != nil {
		line += m.styles.Card.Label.Render(" · ") + m.verifyMark(*v)
	}
	return line
}

// verifyMark is "verified ✓" in the success colour or "✗ 3 failing" in
// the error colour.
func (m *Model) verifyMark(v event.Verification) string {
	if v.Passed {
		return m.styles.Diff.Add.Render(v.Mark())
	}
	return m.styles.Diff.Del.Render(v.Mark())
}

// verifyLines are the verify command's output, shown by o.
func (m *Model) verifyLines() []string {
	v := m.review.Verify
	out := []string{m.styles.Card.Label.Render(clean("$ "+v.Command)) + "  " + m.verifyMark(*v)}
	for line := range strings.Lines(v.Output) {
		out = append(out, "  "+clean(strings.TrimRight(line, "\n")))
	}
	return out
}

// body is every file and hunk, with the cursor's line marked.
func (m *Model) body() []string {
	d := m.styles.Diff
	var out []string
	for i, it := range m.items {
		mark := "  "
		if i == m.cursor {
			mark = m.styles.Card.Key.Render("› ")
		}
		f := m.review.Files[it.file]
		if it.hunk < 0 {
			out = append(out, mark+d.File.Render(fileLine(f))+m.decision(fileDecision(f)))
			continue
		}
		h := f.Hunks[it.hunk]
		out = append(out, mark+"  "+d.Hunk.Render(clean(h.Header))+m.decision(h.Decision))
		for _, l := range h.Lines {
			style := d.Context
			switch l.Kind {
			case '+':
				style = d.Add
			case '-':
				style = d.Del
			}
			out = append(out, "    "+style.Render(string(l.Kind)+clean(l.Text)))
		}
	}
	return out
}

// fileLine is "M path  +3 −1" with what kind of file it is.
func fileLine(f event.ReviewFile) string {
	kind := map[string]string{"added": "A", "deleted": "D"}[f.Status]
	if kind == "" {
		kind = "M"
	}
	extra := ""
	switch {
	case f.Symlink:
		extra = "  (symlink: not applied here)"
	case f.Binary:
		extra = "  (binary)"
	}
	return fmt.Sprintf("%s %s  +%d −%d%s", kind, clean(f.Path), f.Added, f.Removed, extra)
}

// fileDecision is a file's decision: its own, or its hunks' when they
// agree ("" while any is pending, "partly applied" when mixed).
func fileDecision(f event.ReviewFile) string {
	if len(f.Hunks) == 0 || f.Pending() {
		return f.Decision
	}
	first := f.Hunks[0].Decision
	for _, h := range f.Hunks[1:] {
		if h.Decision != first {
			return "partly applied"
		}
	}
	return first
}

// decision renders a decision after its line.
func (m *Model) decision(d string) string {
	switch d {
	case event.DecisionPending:
		return ""
	case event.DecisionSkipped:
		return m.styles.Card.Label.Render("  · skipped")
	case event.DecisionMarked:
		return m.styles.Status.Warning.Render("  · conflict markers")
	}
	return m.styles.Diff.Add.Render("  · " + d)
}

// conflictLines show both sides of every clashing region.
func (m *Model) conflictLines() []string {
	c, d := m.conflict, m.styles.Diff
	out := []string{m.styles.Status.Warning.Render(clean("Conflict in " + c.Path + ": your file and the child's change both changed these lines.")), ""}
	for i, r := range c.Regions {
		out = append(out, m.styles.Card.Label.Render(fmt.Sprintf("── %d · yours ──", i+1)))
		for _, l := range splitText(r.Mine) {
			out = append(out, d.Del.Render("  "+clean(l)))
		}
		out = append(out, m.styles.Card.Label.Render(fmt.Sprintf("── %d · the child's ──", i+1)))
		for _, l := range splitText(r.Child) {
			out = append(out, d.Add.Render("  "+clean(l)))
		}
	}
	return out
}

// statusLine is the last error, or what runs.
func (m *Model) statusLine() string {
	switch {
	case m.confirming:
		return m.styles.Status.Warning.Render("Discard every undecided file and hunk? Nothing of them reaches your tree.")
	case m.err != "":
		return m.styles.Status.Error.Render(clean(m.err))
	case m.busy:
		return m.styles.Status.Busy.Render("applying…")
	}
	return ""
}

// scrollToCursor keeps the cursor's line inside the body.
func (m *Model) scrollToCursor() {
	line := 0
	for i := 0; i < m.cursor && i < len(m.items); i++ {
		line++
		if it := m.items[i]; it.hunk >= 0 {
			line += len(m.review.Files[it.file].Hunks[it.hunk].Lines)
		}
	}
	h := m.bodyHeight()
	switch {
	case line < m.offset:
		m.offset = line
	case line >= m.offset+h:
		m.offset = line - h + 1
	}
}

// splitText splits text into lines without a trailing empty one.
func splitText(s string) []string {
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// clean strips terminal escapes from text a repository or model wrote.
func clean(s string) string { return strings.ReplaceAll(termtext.Clean(s), "\t", "    ") }
