package approval

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/diffview"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// card is one pending question: a tool call that would change something
// (its command line or diff) or a delegation (its type, prompt, tools
// and limits). It takes keys only once armed, so nothing typed before it
// appeared can answer it.
type card struct {
	req    *event.ApprovalRequest
	meta   event.Meta
	number int // the asking child's pane number, 0 for the main agent
	scroll int // first body line shown
	seq    int // arrival order, naming the card in its timers
	// armed cards take keys; arming says the quiet period has started.
	armed, arming bool
	// shownAt is when the card became the active one; called says the
	// person was called back to it.
	shownAt time.Time
	called  bool

	body    []string // drawn body, cached by width
	bodyKey int
}

// delegation is the request's delegation preview, nil for a tool call.
func (c *card) delegation() *event.DelegationPreview {
	if c.req.Kind != event.ApproveDelegation {
		return nil
	}
	return c.req.Delegation
}

// title says, in lines at most width wide, what is asked and, for a
// child's tool call, which child asks (a delegation names its child
// already). The question is never cut; a child's description is, to keep
// the title on one line and its room for the diff or command.
func (c *card) title(width int) []string {
	if s := c.server(); s != nil {
		return serverTitle(s, width)
	}
	if d := c.delegation(); d != nil {
		return wrap(termtext.Clean(fmt.Sprintf("Delegate? [%s] %s", d.AgentType, d.Description)), width)
	}
	if c.isPlan() {
		return wrap(planTitle, width)
	}
	ask := termtext.Clean(fmt.Sprintf("Allow %s?", c.req.Tool))
	if !c.child() {
		return wrap(ask, width)
	}
	who := termtext.Clean(fmt.Sprintf("[%s] ", c.meta.AgentType))
	if c.number > 0 {
		who = fmt.Sprintf("#%d %s", c.number, who)
	}
	desc, asks := termtext.Clean(c.meta.Description), " asks: "+ask
	room := width - ansi.StringWidth(who) - ansi.StringWidth(asks)
	if ansi.StringWidth(desc) > room && room >= minDescription {
		desc = ansi.Truncate(desc, room, "…")
	}
	return wrap(who+desc+asks, width)
}

// minDescription is the fewest cells of a child's description worth
// showing in a card's title; with less room the title wraps.
const minDescription = 8

// child reports whether a sub-agent asks, not the main agent.
func (c *card) child() bool {
	return c.meta.Agent != "" && c.meta.Agent != event.MainAgent
}

// subject names what was asked about, for the status line.
func (c *card) subject() string {
	if d := c.delegation(); d != nil {
		return termtext.Clean(fmt.Sprintf("[%s] %s", d.AgentType, d.Description))
	}
	return termtext.Clean(c.req.Tool)
}

// isolationFacts is the card's word on where the child works: "worktree
// from main@1a2b3c4 + uncommitted changes · <folder>", or "shared" and,
// when a worktree was refused, why.
func isolationFacts(d *event.DelegationPreview, field func(label, value string) string) []string {
	switch {
	case d.Isolation == event.IsolationWorktree && len(d.Verify) > 0:
		return []string{field("isolation", "worktree from "+d.From),
			field("verify", "runs $ "+strings.Join(d.Verify, " && ")+" in its worktree when it finishes")}
	case d.Isolation == event.IsolationWorktree:
		return []string{field("isolation", "worktree from "+d.From)}
	case d.IsolationNote != "":
		return []string{field("isolation", "shared: "+d.IsolationNote)}
	case d.Isolation == event.IsolationShared:
		return []string{field("isolation", "shared (works in your tree)")}
	}
	return nil
}

// worktreeFact says, on a worktree child's permission card, that the
// call works in the child's worktree, not in the person's tree: "writes
// in its worktree …/<session>/<child>, not in your tree", on one line so
// the diff or command above it keeps the room: the folder gives up its
// leading components first (they are the same for every child).
func (m *Model) worktreeFact(c *card) []string {
	dir := termtext.Clean(c.req.Worktree)
	if dir == "" {
		return nil
	}
	verb := "writes"
	if !diffview.Looks(c.req.Preview) {
		verb = "works"
	}
	width := InnerWidth(m.width)
	last := "…/" + dir[strings.LastIndexByte(dir, '/')+1:]
	// Shorter words before a cut of the child's own folder, which names it.
	words := [2]string{"worktree ", ""}
	for _, w := range [][2]string{{verb + " in its worktree ", ", not in your tree"}, {"in its worktree ", ", not your tree"}} {
		room := width - ansi.StringWidth(w[0]) - ansi.StringWidth(w[1])
		if ansi.StringWidth(dir) <= room || ansi.StringWidth(last) <= room {
			words = w
			break
		}
	}
	room := width - ansi.StringWidth(words[0]) - ansi.StringWidth(words[1])
	line := words[0] + shortenPath(dir, room) + words[1]
	return []string{m.styles.Card.Label.Render(termtext.Fit(line, width))}
}

// shortenPath fits path in width cells by dropping leading folders
// ("…/session/child"), and cuts the last one only when it alone is too
// wide.
func shortenPath(path string, width int) string {
	if ansi.StringWidth(path) <= width {
		return path
	}
	parts := strings.Split(path, "/")
	for i := 1; i < len(parts); i++ {
		if short := "…/" + strings.Join(parts[i:], "/"); ansi.StringWidth(short) <= width {
			return short
		}
	}
	return ansi.TruncateLeft(path, ansi.StringWidth(path)-max(width, 1)+1, "…")
}

// wrap breaks plain text into lines of at most width cells.
func wrap(s string, width int) []string {
	return strings.Split(termtext.Wrap(s, width), "\n")
}
