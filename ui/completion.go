package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/themes"
)

// maxPopup is how many completions the popup shows at once.
const maxPopup = 10

// popup returns the completions on offer now: none once esc closed the
// popup for this text.
func (in *input) popup() []candidate {
	value := in.value()
	if value == in.dismissed {
		return nil
	}
	var children []childRef
	if in.children != nil {
		children = in.children()
	}
	return append(completions(value, children), customCompletions(value, in.custom)...)
}

// selected is the highlighted completion; ok is false with no popup.
func (in *input) selected() (candidate, bool) {
	cands := in.popup()
	if len(cands) == 0 {
		return candidate{}, false
	}
	return cands[min(max(in.pick, 0), len(cands)-1)], true
}

// movePick moves the highlight, wrapping around.
func (in *input) movePick(delta int) {
	if n := len(in.popup()); n > 0 {
		in.pick = ((min(in.pick, n-1)+delta)%n + n) % n
	}
}

// choose puts the highlighted completion into the box.
func (in *input) choose() (candidate, bool) {
	c, ok := in.selected()
	if ok {
		in.set(c.text)
		in.pick = 0
	}
	return c, ok
}

// dismiss closes the popup until the text changes.
func (in *input) dismiss() { in.dismissed = in.value() }

// popupView draws the completions, the highlighted one marked so it shows
// without colour too.
func (in *input) popupView(width int) []string {
	cands := in.popup()
	if len(cands) == 0 {
		return nil
	}
	st := in.styles.Completion
	pick := min(max(in.pick, 0), len(cands)-1)
	from := max(0, pick-maxPopup+1)
	nameWidth := 0
	for _, c := range cands {
		nameWidth = max(nameWidth, ansi.StringWidth(c.label))
	}
	var lines []string
	for i := from; i < len(cands) && i < from+maxPopup; i++ {
		c := cands[i]
		name := c.label + strings.Repeat(" ", nameWidth-ansi.StringWidth(c.label))
		line := "  " + st.Item.Render(name) + "  " + st.Desc.Render(c.desc)
		if i == pick {
			line = "› " + st.Selected.Render(name) + "  " + st.Desc.Render(c.desc)
		}
		lines = append(lines, fit(line, width))
	}
	return lines
}

// candidate is one line of the completion popup: how it is listed, the
// text it puts in the box, and whether choosing it runs the command at
// once.
type candidate struct {
	label, text, desc string
	complete          bool
}

// completions lists what the box could become: commands matching what
// was typed after "/", theme names after "/theme ", and the /subagents
// commands with the children they can act on.
func completions(value string, children []childRef) []candidate {
	if !strings.HasPrefix(value, "/") || strings.Contains(value, "\n") {
		return nil
	}
	if rest, ok := strings.CutPrefix(value, "/subagents "); ok {
		return subagentCompletions(rest, children)
	}
	if rest, ok := strings.CutPrefix(value, "/theme "); ok {
		var out []candidate
		for _, name := range themes.Names() {
			if strings.HasPrefix(name, strings.TrimSpace(rest)) {
				out = append(out, candidate{label: name, text: "/theme " + name, desc: "theme", complete: true})
			}
		}
		return out
	}
	if strings.Contains(value, " ") {
		return nil
	}
	var out []candidate
	for _, c := range commands {
		if strings.HasPrefix("/"+c.name, value) {
			text, complete := "/"+c.name, c.args == ""
			if !complete {
				text += " "
			}
			label := strings.TrimSpace("/" + c.name + " " + c.args)
			out = append(out, candidate{label: label, text: text, desc: c.desc, complete: complete})
		}
	}
	return out
}
