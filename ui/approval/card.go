package approval

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/rules"
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

// title says what is asked and, for a child's tool call, which child
// asks (a delegation names its child already).
func (c *card) title() string {
	if d := c.delegation(); d != nil {
		return termtext.Clean(fmt.Sprintf("Delegate? [%s] %s", d.AgentType, d.Description))
	}
	t := fmt.Sprintf("Allow %s?", c.req.Tool)
	if c.child() {
		t = fmt.Sprintf("[%s] %s asks: %s", c.meta.AgentType, c.meta.Description, t)
		if c.number > 0 {
			t = fmt.Sprintf("#%d %s", c.number, t)
		}
	}
	return termtext.Clean(t)
}

// child reports whether a sub-agent asks, not the main agent.
func (c *card) child() bool {
	return c.meta.Agent != "" && c.meta.Agent != event.MainAgent
}

// covers says whether an "always" answer to c, adding chosen, answers
// other as well: a delegation to the same type, or a call of the same
// agent that the chosen rules allow.
func (c *card) covers(other *card, chosen []string, workspace string) bool {
	if c.req.Kind != other.req.Kind {
		return false
	}
	if d, o := c.delegation(), other.delegation(); d != nil && o != nil {
		return d.AgentType == o.AgentType
	}
	if c.meta.Agent != other.meta.Agent || len(chosen) == 0 {
		return false
	}
	list, err := rules.ParseAll(chosen)
	if err != nil {
		return false
	}
	return rules.Covered(list, rules.CallOf(other.req.Tool, json.RawMessage(other.req.Args), workspace))
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
// in its worktree <folder>, not in your tree", wrapped so the folder is
// never cut.
func (m *Model) worktreeFact(c *card) []string {
	dir := termtext.Clean(c.req.Worktree)
	if dir == "" {
		return nil
	}
	verb := "works"
	if diffview.Looks(c.req.Preview) {
		verb = "writes"
	}
	var lines []string
	for _, line := range wrap(verb+" in its worktree "+dir+", not in your tree", InnerWidth(m.width)) {
		lines = append(lines, m.styles.Card.Label.Render(line))
	}
	return lines
}

// wrap breaks plain text into lines of at most width cells.
func wrap(s string, width int) []string {
	return strings.Split(termtext.Wrap(s, width), "\n")
}
