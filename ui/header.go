package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// headerView draws the top line, the demo, permission and agent mode, waiting
// approvals and folder on the left and model, tokens, context fill and
// cost on the right, and a rule under it. When space is short the folder
// gives way first, from its start; then the left side takes its short
// form and the stats their narrow separators, and only then do the stats
// go, the least telling first.
func (m *Model) headerView() []string {
	key := headerKey{width: m.width, background: m.agents.inBackground(), approvals: m.approvals.Len(),
		contextUsed: m.contextUsed, contextWindow: m.contextWindow, theme: m.styles.Palette.Name,
		mode: m.opts.Mode, agentMode: m.mode.Mode(), sandbox: m.opts.Sandbox, model: m.model, folder: m.folder, demo: m.opts.Demo,
		usage: m.pastUsage.Add(m.turnUsage)}
	if m.header.lines == nil || m.header.key != key {
		m.header.key, m.header.lines = key, m.drawHeader()
	}
	return slices.Clone(m.header.lines)
}

// headerKey is everything the header is drawn from: it is redrawn only
// when one of them changed, not on every frame of a streaming answer.
type headerKey struct {
	width, background, approvals, contextUsed int
	contextWindow                             int64
	theme, mode, sandbox, model, folder       string
	agentMode                                 event.AgentMode
	demo                                      bool
	usage                                     event.Usage
}

// headerCache is the header as last drawn and what it was drawn from,
// shared by the Model's copies.
type headerCache struct {
	key   headerKey
	lines []string
}

// drawHeader draws the header line and its rule (see headerView).
func (m *Model) drawHeader() []string {
	st := m.styles.Header
	stats := m.statsParts()
	left, right := m.headerLeft(false), ""
	for _, short := range []bool{false, true} {
		left = m.headerLeft(short)
		for n := len(stats); n >= 0; n-- {
			sep := " · "
			if short {
				sep = " "
			}
			right = strings.Join(stats[:n], st.Stats.Render(sep))
			if ansi.StringWidth(left)+ansi.StringWidth(right)+1 <= m.width {
				return m.headerLine(left, right)
			}
			if !short {
				break // the short words go before any stat
			}
		}
	}
	return m.headerLine(left, "")
}

// headerLeft is the left side before the folder: the title, the demo
// and permission mode and the approvals waiting; short drops the title
// and a mode other than yolo, and says less about the approvals.
func (m *Model) headerLeft(short bool) string {
	st := m.styles.Header
	sep := st.Stats.Render(" · ")
	left := ""
	if !short {
		left = st.Title.Render("baton") + sep
	}
	if m.opts.Demo {
		left += st.Demo.Render("demo (offline)") + sep
	}
	if m.opts.Mode == "yolo" {
		left += st.Demo.Render("yolo") + sep
	} else if m.opts.Mode != "" && !short { // only yolo is worth its room
		left += st.Stats.Render(termtext.Clean(m.opts.Mode)) + sep
	}
	if mode := m.mode.Mode(); mode != event.AgentModeNormal { // worth its room: it changes what runs unasked
		left += st.Demo.Render(mode.Label()) + sep
	}
	switch m.opts.Sandbox {
	case "off":
		left += st.Demo.Render("sandbox off") + sep
	case "unavailable":
		left += st.Demo.Render("no sandbox") + sep
	case "read-only":
		if !short {
			left += st.Stats.Render("read-only") + sep
		}
	}
	if n := m.agents.inBackground(); n > 0 {
		left += st.Stats.Render(fmt.Sprintf("%d in background", n)) + sep
	}
	if n := m.approvals.Len(); n > 0 && short {
		left += st.Demo.Render(fmt.Sprintf("%d waiting", n)) + sep
	} else if n > 0 {
		left += st.Demo.Render(plural(n, "approval")+" waiting") + sep
	}
	return left
}

// headerLine puts the folder in the room between left and right, cut
// from its start, and the rule under the line.
func (m *Model) headerLine(left, right string) []string {
	st := m.styles.Header
	room := m.width - ansi.StringWidth(left) - ansi.StringWidth(right) - 1
	folder := m.folder
	if ansi.StringWidth(folder) > room {
		folder = cutFolder(folder, room)
	}
	if folder == "" { // no separator left hanging before the gap
		left = strings.TrimSuffix(left, st.Stats.Render(" · "))
	}
	left += st.Folder.Render(folder)
	gap := max(m.width-ansi.StringWidth(left)-ansi.StringWidth(right), 1)
	return []string{
		fit(left+strings.Repeat(" ", gap)+right, m.width),
		st.Rule.Render(strings.Repeat("─", max(m.width, 0))),
	}
}

// cutFolder shortens a folder to at most room columns from its start,
// at a "/" so no name is cut: "…/walk/repo"; "" when not even the last
// name fits.
func cutFolder(folder string, room int) string {
	for i, r := range folder {
		if r == '/' && i > 0 && 1+ansi.StringWidth(folder[i:]) <= room {
			return "…" + folder[i:]
		}
	}
	return ""
}

// statsParts are the right side of the header, the most telling first.
func (m *Model) statsParts() []string {
	st := m.styles.Header
	usage := m.pastUsage.Add(m.turnUsage)
	parts := []string{st.Model.Render(termtext.Clean(m.model)), st.Stats.Render(event.Compact(int64(usage.TotalTokens)) + " tok")}
	if m.contextWindow > 0 && m.contextUsed > 0 {
		parts = append(parts, st.Stats.Render(fmt.Sprintf("ctx %d%%", int64(m.contextUsed)*100/m.contextWindow)))
	}
	if usage.CostKnown && usage.Requests > 0 {
		parts = append(parts, st.Stats.Render(fmt.Sprintf("$%.3f", usage.Cost)))
	}
	return parts
}

// displayPath shortens the home folder to "~".
func displayPath(dir string) string {
	if dir == "" {
		dir = "."
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		if rel, err := filepath.Rel(home, dir); err == nil && !strings.HasPrefix(rel, "..") && filepath.IsAbs(dir) {
			return filepath.Join("~", rel)
		}
	}
	return termtext.Clean(dir)
}
