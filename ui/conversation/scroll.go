package conversation

import "github.com/seed-e4e525a6/baton/ui/termtext"

// anchor is a line of the transcript: line-th line of item-th item.
type anchor struct{ item, line int }

// visible returns exactly height lines of the transcript at width. Only the
// items on screen are drawn, so a frame costs the same with ten messages
// or ten thousand.
func (c *Model) visible(width, height int) []string {
	if height <= 0 {
		return nil
	}
	if !c.pinned {
		if lines, ok := c.forward(c.top, width, height); ok {
			return lines
		}
	}
	return c.backward(width, height)
}

// forward collects height lines from top; ok is false when the transcript
// ends first (then the bottom view is the right one).
func (c *Model) forward(top anchor, width, height int) ([]string, bool) {
	out := make([]string, 0, height)
	for i := top.item; i < len(c.items) && len(out) < height; i++ {
		lines := c.lines(i, width)
		if i == top.item {
			lines = lines[min(top.line, len(lines)):]
		}
		out = append(out, lines[:min(len(lines), height-len(out))]...)
	}
	return out, len(out) == height
}

// backward collects the last height lines, walking from the newest item;
// a transcript shorter than the screen is padded above, so it sits on
// the input as in a terminal, not at the top of an empty screen.
func (c *Model) backward(width, height int) []string {
	var chunks [][]string
	n := 0
	for i := len(c.items) - 1; i >= 0 && n < height; i-- {
		lines := c.lines(i, width)
		chunks = append(chunks, lines)
		n += len(lines)
	}
	out := make([]string, 0, max(n, height))
	for i := len(chunks) - 1; i >= 0; i-- {
		out = append(out, chunks[i]...)
	}
	out = out[max(0, len(out)-height):]
	if pad := height - len(out); pad > 0 {
		out = append(make([]string, pad), out...)
	}
	return out
}

// bottomAnchor is the first visible line while pinned; ok is false when
// everything fits on screen and there is nothing to scroll.
func (c *Model) bottomAnchor(width, height int) (anchor, bool) {
	n := 0
	for i := len(c.items) - 1; i >= 0; i-- {
		n += len(c.lines(i, width))
		if n >= height {
			return anchor{item: i, line: n - height}, true
		}
	}
	return anchor{}, false
}

// scrollUp moves the view n lines towards the start; it stops following
// the bottom.
func (c *Model) scrollUp(n, width, height int) {
	if c.pinned {
		top, ok := c.bottomAnchor(width, height)
		if !ok {
			return
		}
		c.top, c.pinned = top, false
	}
	c.top.line -= n
	for c.top.line < 0 && c.top.item > 0 {
		c.top.item--
		c.top.line += len(c.lines(c.top.item, width))
	}
	c.top.line = max(c.top.line, 0)
}

// scrollDown moves the view n lines towards the end; reaching the bottom
// pins it again so new text is followed.
func (c *Model) scrollDown(n, width, height int) {
	if c.pinned {
		return
	}
	c.top.line += n
	for c.top.item < len(c.items)-1 {
		size := len(c.lines(c.top.item, width))
		if c.top.line < size {
			break
		}
		c.top.line -= size
		c.top.item++
	}
	c.pinned = !c.overflows(c.top, width, height)
}

// toTop shows the start of the transcript.
func (c *Model) toTop(width, height int) {
	c.top = anchor{}
	c.pinned = !c.overflows(c.top, width, height)
}

// ToBottom follows the bottom again.
func (c *Model) ToBottom() { c.pinned = true }

// Pinned says whether the view follows the bottom, so new text is seen
// as it comes (the footer offers the way back when it does not).
func (c *Model) Pinned() bool { return c.pinned }

// overflows says whether more than height lines follow top, so that
// showing from top is not the same as showing the bottom.
func (c *Model) overflows(top anchor, width, height int) bool {
	n := -top.line
	for i := top.item; i < len(c.items); i++ {
		n += len(c.lines(i, width))
		if n > height {
			return true
		}
	}
	return false
}

// View is the conversation in height lines of width, or the welcome
// text before anything was said.
func (c *Model) View(width, height int) []string {
	if c.Empty() {
		return c.welcome(width, height)
	}
	return c.visible(width, height)
}

// welcomeExamples are the two prompts the welcome offers: a question,
// and a change (in the demo, the one that shows a write card).
var welcomeExamples = [2]string{"what does this project do, and where does it start?", "add a --verbose flag and a test for it"}

// welcome is the first screen: what baton is and how to start.
func (c *Model) welcome(width, height int) []string {
	st := c.rc.styles.Conversation
	lines := []string{
		st.AssistantLabel.Render("baton") + st.Info.Render(" · a coding agent that delegates to sub-agents"),
		"",
		st.Info.Render("Ask about this folder, or ask for a change. For example:"),
		st.UserLabel.Render("  › ") + st.User.Render(welcomeExamples[0]),
		st.UserLabel.Render("  › ") + st.User.Render(welcomeExamples[1]),
		"",
		st.Info.Render("/help lists commands and keys · ? shows all keys"),
	}
	if c.demo {
		lines = append(lines, "",
			st.Interrupted.Render("demo (offline): a scripted model answers and delegates to sub-agents."),
			st.Info.Render("To connect a real model, quit and set OPENAI_API_KEY, and optionally"),
			st.Info.Render("OPENAI_BASE_URL (any OpenAI-compatible endpoint) and BATON_MODEL."))
	}
	body := make([]string, height)
	for i := 0; i < height && i < len(lines); i++ {
		body[i] = termtext.Fit(lines[i], width)
	}
	return body
}
