package permission

import (
	"context"
	"fmt"
	"slices"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/hooks"
	"github.com/seed-e4e525a6/baton/engine/rules"
)

// authorize returns nil when the call may run, or an error for the model
// saying why not and, in headless runs, how to allow it. What the call's
// PreToolUse hooks decided (req.Hook) weighs too: allow skips the card,
// ask shows it; neither overrides a deny or ask rule. The allowed-tools
// of the agent's active skills narrow what runs without asking.
func (p *Policy) authorize(ctx context.Context, who Who, grants *Grants, req agent.ToolRequest) error {
	name := req.Tool
	mode := p.AgentMode()
	if mode == AgentModePlan && !req.ReadOnly {
		return fmt.Errorf("%s was not run: the session is in plan mode, where only read-only tools run; "+
			"finish the plan, and the person switches the mode when it should be carried out", name)
	}
	call := rules.CallOf(name, req.Args, p.workspace)
	standing := p.snapshot()
	// Deny and ask rules bind every agent; standing allow rules are the
	// main agent's, and a child's come from its card and its file.
	verdict, rule := rules.Set{Deny: standing.Deny, Ask: standing.Ask}.Decide(call)
	if verdict == rules.Denied {
		return fmt.Errorf("%s is denied by the rule deny %s%s; do not retry it, or ask the person to change the rule", name, rule, Unclear(call))
	}
	allowed := rules.Covered(standing.Allow, call)
	if grants != nil {
		own, ownRule := grants.own.DecideScopedFirst(call)
		switch own {
		case rules.Denied:
			return fmt.Errorf("%s is denied by this agent's own rule %s%s; use another way, or report that you cannot", name, ownRule, Unclear(call))
		case rules.Asked:
			if verdict != rules.Asked {
				verdict, rule = rules.Asked, ownRule
			}
		}
		allowed = own == rules.Allowed || grants.covers(call)
	}
	unasked := allowed || req.ReadOnly
	outside := req.Narrowed != nil && !rules.Covered(req.Narrowed, call)
	if outside {
		unasked = false
	}
	switch {
	case p.mode == Yolo:
		return nil
	case verdict == rules.Asked && p.mode == Headless:
		return fmt.Errorf("%s needs approval (rule ask %s%s) and a headless run cannot ask", name, rule, Unclear(call))
	case verdict == rules.Asked:
	case req.Hook == hooks.Ask && p.mode == Headless:
		return fmt.Errorf("%s needs approval (a PreToolUse hook asked for it) and a headless run cannot ask", name)
	case req.Hook == hooks.Ask:
	case req.Hook == hooks.Allow || unasked:
		return nil
	case mode == AgentModeAutoAccept && !outside && slices.Contains(editTools, name):
		return nil
	case outside && p.mode == Headless:
		return fmt.Errorf("%s is not among the tools the active skill %s lets run without asking (its allowed-tools), and a headless run cannot ask", name, req.Skills)
	case p.mode == Headless:
		how := fmt.Sprintf("--allow %s (or --yolo)", name)
		if narrow := suggestion(call); narrow != name {
			how = fmt.Sprintf("--allow %q (or --allow %s, or --yolo)", narrow, name)
		}
		return fmt.Errorf("%s needs approval and a headless run cannot ask; re-run with %s to let it run", name, how)
	}
	forced := verdict == rules.Asked || req.Hook == hooks.Ask || outside
	return p.askTool(ctx, who, grants, req, question{agent: who.Meta.Agent, call: call, forced: forced})
}

// Unclear explains a command that every deny and ask rule covers
// because rules cannot tell what it runs; "" for any other call.
func Unclear(call rules.Call) string {
	if why := call.Unclear(); why != "" {
		return "; " + why + ", so every deny and ask rule covers it: name the program plainly"
	}
	return ""
}

// DenyRule is the standing deny rule that covers call, for a call the
// person makes themselves (an @mention, a !command): no card asks about
// it, but a deny rule still holds.
func (p *Policy) DenyRule(call rules.Call) (rules.Rule, bool) {
	verdict, rule := rules.Set{Deny: p.snapshot().Deny}.Decide(call)
	return rule, verdict == rules.Denied
}

// suggestion is the narrowest rule that would have allowed call, for
// the headless hint.
func suggestion(call rules.Call) string {
	if s := rules.Suggest(call); len(s) > 0 {
		return s[0].String()
	}
	return call.Tool
}

// askTool asks the person about a call, offering the rules "always"
// would add (with the words the card says them in), and applies the
// answer: an "always" also answers the agent's waiting calls its rules
// cover.
func (p *Policy) askTool(ctx context.Context, who Who, grants *Grants, tr agent.ToolRequest, q question) error {
	call := q.call
	preview := ""
	if tr.Preview != nil {
		var err error
		if preview, err = tr.Preview(ctx); err != nil {
			return err
		}
	}
	req := p.Request(event.ApproveTool)
	req.CallID, req.Tool, req.Args, req.Preview = tr.CallID, tr.Tool, string(tr.Args), preview
	req.Worktree = who.Worktree
	always, folder := rules.Suggest(call), rules.SuggestFolder(call)
	req.Always, req.AlwaysLabel = rules.Strings(always), rules.Describe(always)
	req.AlwaysFolder, req.AlwaysFolderLabel = rules.Strings(folder), rules.Describe(folder)
	ans := p.ask(ctx, who, req, q)
	switch ans.Decision {
	case event.AllowAlways:
		added := p.rememberAnswer(grants, req, ans)
		p.waiting.settle(event.ApproveTool, func(w *question) bool {
			return w.agent == who.Meta.Agent && !w.forced && rules.Covered(added, w.call)
		})
		return nil
	case event.Allow:
		return nil
	}
	return &agent.DeniedError{Tool: tr.Tool, Reason: ans.Reason}
}

// rememberAnswer keeps the rules an "always" answer chose, if the
// request offered them: for the main agent as standing rules, for a child
// as its own. An answer naming no offered rule allows this call only. It
// returns the rules kept.
func (p *Policy) rememberAnswer(grants *Grants, req *event.ApprovalRequest, ans event.Answer) []rules.Rule {
	var added []rules.Rule
	chosen := ans.Rules
	if len(chosen) == 0 {
		chosen = req.Always
	}
	for _, text := range chosen {
		if !slices.Contains(req.Always, text) && !slices.Contains(req.AlwaysFolder, text) {
			continue
		}
		r, err := rules.Parse(text)
		if err != nil {
			continue
		}
		added = append(added, r)
		if grants != nil {
			grants.add(r)
			continue
		}
		p.mu.Lock()
		p.standing = appendRule(p.standing, standingRule{kind: rules.Allow, rule: r, source: event.SourceSession})
		p.mu.Unlock()
	}
	return added
}
