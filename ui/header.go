package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// headerView draws the top line, the demo and permission mode, waiting
// approvals and folder on the left and model, tokens, context fill and
// cost on the right, and a rule under it. When space is
// short the folder gives way first, from its start.
func (m *Model) headerView() []string {
	st := m.styles.Header
	sep := st.Stats.Render(" · ")
	left := st.Title.Render("baton") + sep
	if m.opts.Demo {
		left += st.Demo.Render("demo (offline)") + sep
	}
	if m.opts.Mode == "yolo" {
		left += st.Demo.Render("yolo") + sep
	} else if m.opts.Mode != "" {
		left += st.Stats.Render(termtext.Clean(m.opts.Mode)) + sep
	}
	if n := len(m.approvals); n > 0 {
		left += st.Demo.Render(plural(n, "approval")+" waiting") + sep
	}
	right := m.statsView()
	room := m.width - ansi.StringWidth(left) - ansi.StringWidth(right) - 1
	if room < 4 {
		right, room = "", m.width-ansi.StringWidth(left)
	}
	folder := m.folder
	if w := ansi.StringWidth(folder); w > room {
		folder = ansi.TruncateLeft(folder, w-max(room, 1)+1, "…")
	}
	left += st.Folder.Render(folder)
	gap := max(m.width-ansi.StringWidth(left)-ansi.StringWidth(right), 1)
	return []string{
		fit(left+strings.Repeat(" ", gap)+right, m.width),
		st.Rule.Render(strings.Repeat("─", max(m.width, 0))),
	}
}

// statsView is the right side of the header.
func (m *Model) statsView() string {
	st := m.styles.Header
	usage := m.pastUsage.Add(m.turnUsage)
	parts := []string{st.Model.Render(termtext.Clean(m.model)), st.Stats.Render(compact(int64(usage.TotalTokens)) + " tok")}
	if m.contextWindow > 0 && m.contextUsed > 0 {
		parts = append(parts, st.Stats.Render(fmt.Sprintf("ctx %d%%", int64(m.contextUsed)*100/m.contextWindow)))
	}
	if usage.CostKnown && usage.Requests > 0 {
		parts = append(parts, st.Stats.Render(fmt.Sprintf("$%.3f", usage.Cost)))
	}
	return strings.Join(parts, st.Stats.Render(" · "))
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

// compact writes a count the way people read it at a glance: 950, 12.4k,
// 3.1M.
func compact(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n < 1_000_000:
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	default:
		return fmt.Sprintf("%.1fM", float64(n)/1_000_000)
	}
}
