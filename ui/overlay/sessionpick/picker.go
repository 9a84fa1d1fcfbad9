// Package sessionpick is the /resume picker: this folder's recorded
// sessions, most recently active first, each with when it was last
// active, its turns and cost and its first prompt, filtered as the person
// types and chosen with enter: a pick.Picker over the sessions. The
// session running now is marked and cannot be chosen.
package sessionpick

import (
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/transcript"
	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/overlay/pick"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// New opens the picker over sessions (text from the transcripts cleaned
// here, once); current is the running session, marked and not chosen;
// now dates the rows; enter on a session runs choose with its id. It
// keeps the styles without reading them, so a Cmd may make it.
func New(sessions []transcript.Summary, current string, now time.Time, styles *themes.Styles, choose func(id string) tea.Cmd) *pick.Picker {
	rows := make([]pick.Row, 0, len(sessions))
	for _, s := range sessions {
		facts := event.Plural(s.Turns, "turn")
		if s.Tokens > 0 {
			facts += " · " + event.Compact(int64(s.Tokens)) + " tok"
		}
		if s.CostKnown && s.Cost > 0 {
			facts += fmt.Sprintf(" · $%.3f", s.Cost)
		}
		title := strings.Join(strings.Fields(termtext.Clean(s.Title)), " ")
		if title == "" {
			title = "(no prompt)"
		}
		when := ago(now, s.LastActive)
		rows = append(rows, pick.Row{ID: termtext.Clean(s.ID), Search: title, Draw: func(styles *themes.Styles, selected bool) string {
			return line(styles, when, title, facts, selected)
		}})
	}
	return pick.New(rows, styles, pick.Options{Title: "Resume a session", Verb: "resume", Current: current, Marks: "this session",
		Noun: "session", Fixed: true, Choose: choose})
}

// line draws one session: when, the first prompt and the figures.
func line(styles *themes.Styles, when, title, facts string, selected bool) string {
	st := styles.Completion
	shown := st.Item.Render(title)
	if selected {
		shown = st.Selected.Render(title)
	}
	return st.Desc.Render(fmt.Sprintf("%-9s", when)) + " " + shown + "  " + st.Desc.Render(facts)
}

// ago says how long before now t was, the short way: "just now", "5m",
// "3h", "2d"; a date past a week.
func ago(now, t time.Time) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	case d < 7*24*time.Hour:
		return fmt.Sprintf("%dd ago", int(d.Hours()/24))
	}
	return t.Local().Format("Jan 2")
}
