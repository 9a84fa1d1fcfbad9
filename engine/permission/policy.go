// Package permission is a session's one policy for what agents may do:
// the standing rules (config, flags, what the person added; deny beats
// ask beats allow), each child's own rules, and else the person, asked
// through an approval card on the session's one queue. Guardrails
// (workspace, blocklist, .git) are not decided here: the tools enforce
// them whatever the answer.
package permission

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/rules"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// Mode says how calls that need approval are decided.
type Mode string

// The permission modes.
const (
	// Ask asks the person through ApprovalRequested events (the TUI).
	Ask Mode = "ask"
	// Headless never waits: it allows what the allow rules name and
	// refuses the rest with a result that says how to allow it.
	Headless Mode = "headless"
	// Yolo allows everything except what the guardrails forbid.
	Yolo Mode = "yolo"
)

// Policy decides tool calls and delegations for every agent of a session.
type Policy struct {
	mode      Mode
	workspace string
	approvals atomic.Int64

	mu sync.Mutex
	// standing are the main agent's rules: config, flags and what the
	// person added in this session.
	standing []standingRule
	// rememberedTypes are delegations allowed "always", with the rules
	// the card that said so let children of the type inherit.
	rememberedTypes map[string][]rules.Rule
	// agentMode is the session's mode ("" is normal).
	agentMode AgentMode
	// notify, when set, is told of each card published (Notification
	// hooks); it must not block.
	notify func(*event.ApprovalRequest)
	// waiting are the questions published and not yet answered.
	waiting waiting
}

// Notify has notify told of each card published from now on; it must
// not block.
func (p *Policy) Notify(notify func(*event.ApprovalRequest)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.notify = notify
}

// published tells notify of a card.
func (p *Policy) published(req *event.ApprovalRequest) {
	p.mu.Lock()
	notify := p.notify
	p.mu.Unlock()
	if notify != nil {
		notify(req)
	}
}

// standingRule is a parsed rule with its kind and where it came from.
type standingRule struct {
	kind   rules.Kind
	rule   rules.Rule
	source string
}

// New builds the policy of a session in workspace from its rules; allow
// names (the --allow flag) are rules too.
func New(mode Mode, workspace string, allow []string, standing []event.PermissionRule) (*Policy, error) {
	p := &Policy{mode: mode, workspace: workspace, rememberedTypes: map[string][]rules.Rule{}}
	if p.mode == "" {
		p.mode = Ask
	}
	for _, text := range allow {
		if err := p.add(event.PermissionRule{Kind: string(rules.Allow), Rule: text, Source: event.SourceFlag}); err != nil {
			return nil, err
		}
	}
	for _, r := range standing {
		if err := p.add(r); err != nil {
			return nil, fmt.Errorf("%s rule from %s: %w", r.Kind, r.Source, err)
		}
	}
	return p, nil
}

// Who is the agent a decision is about: the identity its cards carry,
// where they are published, and the worktree it works in ("" for the
// person's tree), which its cards name.
type Who struct {
	Meta     event.Meta
	Emit     func(event.Event)
	Worktree string
}

// stamp returns the agent's Meta with the current time.
func (w Who) stamp() event.Meta {
	m := w.Meta
	m.Time = time.Now()
	return m
}

// Request makes an approval request with a fresh id.
func (p *Policy) Request(kind event.ApprovalKind) *event.ApprovalRequest {
	return event.NewApprovalRequest("ap-"+strconv.FormatInt(p.approvals.Add(1), 10), kind)
}

// NoteApproval moves the request ids past one a resumed transcript used,
// so a new card never reuses an old id.
func (p *Policy) NoteApproval(id string) {
	digits, ok := strings.CutPrefix(id, "ap-")
	n, err := strconv.ParseInt(digits, 10, 64)
	if !ok || err != nil {
		return
	}
	for {
		cur := p.approvals.Load()
		if cur >= n || p.approvals.CompareAndSwap(cur, n) {
			return
		}
	}
}

// Ask publishes req for who and waits for the answer or the end of ctx.
func (p *Policy) Ask(ctx context.Context, who Who, req *event.ApprovalRequest) event.Answer {
	return p.ask(ctx, who, req, question{})
}

// AskServer is Ask for an MCP server's card: an "always" (trusting the
// folder) starts the other servers waiting too.
func (p *Policy) AskServer(ctx context.Context, who Who, req *event.ApprovalRequest) event.Answer {
	ans := p.ask(ctx, who, req, question{})
	if ans.Decision == event.AllowAlways {
		p.waiting.settle(event.ApproveMCPServer, func(*question) bool { return true })
	}
	return ans
}

// ask publishes req, about q, and waits for the answer or the end of ctx.
func (p *Policy) ask(ctx context.Context, who Who, req *event.ApprovalRequest, q question) event.Answer {
	p.waiting.add(req, q)
	who.Emit(event.ApprovalRequested{Meta: who.stamp(), Request: req})
	p.published(req)
	return p.await(ctx, who, req)
}

// await waits for a published request's answer or the end of ctx, and
// records who answered: the person, a choice they remembered for another
// card, or the cancellation.
func (p *Policy) await(ctx context.Context, who Who, req *event.ApprovalRequest) event.Answer {
	ans := req.Wait(ctx)
	by := "person"
	switch {
	case p.waiting.done(req):
		by = "remembered"
	case ctx.Err() != nil:
		by = "cancellation"
	}
	who.Emit(event.ApprovalResolved{Meta: who.stamp(), RequestID: req.ID, Answer: ans, By: by})
	return ans
}

// Grants are what a child may do beyond asking: its agent file's own
// rules, the standing rules its delegation card let it inherit, and what
// the person allowed "always" on the child's own cards. The main agent
// has none: the standing rules are its own.
type Grants struct {
	own rules.Set

	mu        sync.Mutex
	inherited []rules.Rule
	added     []rules.Rule
}

// NewGrants starts a child's grants from its own rules.
func NewGrants(own rules.Set) *Grants {
	return &Grants{own: own}
}

// inherit gives the child the rules its approved card listed.
func (g *Grants) inherit(list []rules.Rule) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.inherited = list
}

// covers says whether a child's inherited or added rules allow call.
func (g *Grants) covers(call rules.Call) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return rules.Covered(append(slices.Clip(g.inherited), g.added...), call)
}

// add keeps a rule a child's own card allowed "always".
func (g *Grants) add(rule rules.Rule) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.added = append(g.added, rule)
}

// For is the policy of one agent: who its cards are about and, for a
// child, its grants (nil for the main agent).
func (p *Policy) For(who Who, grants *Grants) Gate {
	return Gate{p: p, who: who, grants: grants}
}

// Gate is the policy bound to one agent.
type Gate struct {
	p      *Policy
	who    Who
	grants *Grants
}

// Authorize implements agent.Authorizer.
func (g Gate) Authorize(ctx context.Context, req agent.ToolRequest) (tools.Withhold, error) {
	if err := g.p.authorize(ctx, g.who, g.grants, req); err != nil {
		return nil, err
	}
	return g.Withholding(req.Tool).Func(), nil
}

// Withholding is what the agent's searches and listings with tool leave
// out, as data.
func (g Gate) Withholding(tool string) Withholding {
	return g.p.withholding(g.grants, tool)
}
