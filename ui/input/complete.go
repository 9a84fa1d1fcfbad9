package input

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// maxPopup is how many completions the popup shows at once.
const maxPopup = 10

// Candidate is one line of the completion popup: how it is listed, the
// text it puts in the box, and whether choosing it runs the command at
// once.
type Candidate struct {
	Label, Text, Desc string
	Complete          bool
}

// popup returns the completions on offer now: none once esc closed the
// popup for this text.
func (m *Model) popup() []Candidate {
	value := m.Value()
	if value == m.dismiss {
		return nil
	}
	if cands, mention := m.mentionCandidates(); mention {
		return cands
	}
	if m.complete == nil {
		return nil
	}
	return m.complete(value)
}

// PopupOpen says whether the popup offers anything now.
func (m *Model) PopupOpen() bool { return len(m.popup()) > 0 }

// Selected is the highlighted completion; ok is false with no popup.
func (m *Model) Selected() (Candidate, bool) {
	cands := m.popup()
	if len(cands) == 0 {
		return Candidate{}, false
	}
	return cands[min(max(m.pick, 0), len(cands)-1)], true
}

// movePick moves the highlight, wrapping around.
func (m *Model) movePick(delta int) {
	if n := len(m.popup()); n > 0 {
		m.pick = ((min(m.pick, n-1)+delta)%n + n) % n
	}
}

// choose puts the highlighted completion into the box.
func (m *Model) choose() {
	if c, ok := m.Selected(); ok {
		m.Set(c.Text)
		m.pick = 0
	}
}

// PopupView draws the completions while the box has the keys, the
// highlighted one marked so it shows without colour too; at most height
// lines, the highlighted one among them.
func (m *Model) PopupView(height int) []string {
	cands := m.popup()
	if len(cands) == 0 || !m.Focused() || height <= 0 {
		return nil
	}
	st := m.styles.Completion
	pick := min(max(m.pick, 0), len(cands)-1)
	from := max(0, pick-maxPopup+1)
	nameWidth := 0
	for _, c := range cands {
		nameWidth = max(nameWidth, ansi.StringWidth(c.Label))
	}
	var lines []string
	for i := from; i < len(cands) && i < from+maxPopup; i++ {
		c := cands[i]
		name := c.Label + strings.Repeat(" ", nameWidth-ansi.StringWidth(c.Label))
		line := "  " + st.Item.Render(name) + "  " + st.Desc.Render(c.Desc)
		if i == pick {
			line = "› " + st.Selected.Render(name) + "  " + st.Desc.Render(c.Desc)
		}
		lines = append(lines, termtext.Fit(line, m.width))
	}
	return lines[max(len(lines)-height, 0):]
}
