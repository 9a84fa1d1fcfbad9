package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/hooks"
	"github.com/seed-e4e525a6/baton/engine/rules"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// permissions decides tool calls and delegations by the session's
// standing rules (deny beats ask beats allow), an agent's own rules, and
// else by asking the person. Guardrails (workspace, blocklist, .git) are
// not decided here: the tools enforce them whatever the answer.
type permissions struct {
	mode      PermissionMode
	ids       *idSource
	workspace string

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

// standingRule is a parsed rule with its kind and where it came from.
type standingRule struct {
	kind   rules.Kind
	rule   rules.Rule
	source string
}

// agentRules are what a child may do beyond asking: its agent file's own
// rules, the standing rules its delegation card let it inherit, and what
// the person allowed "always" on the child's own cards. The main agent
// has none: the standing rules are its own.
type agentRules struct {
	own       rules.Set
	inherited []rules.Rule

	mu    sync.Mutex
	added []rules.Rule
}

// newPermissions builds the policy for a session from its rules; allow
// names (the --allow flag) are rules too.
func newPermissions(cfg Config, ids *idSource) (*permissions, error) {
	p := &permissions{mode: cfg.Mode, ids: ids, workspace: cfg.Workspace, rememberedTypes: map[string][]rules.Rule{}}
	if p.mode == "" {
		p.mode = ModeAsk
	}
	for _, text := range cfg.Allow {
		if err := p.add(event.PermissionRule{Kind: string(rules.Allow), Rule: text, Source: event.SourceFlag}); err != nil {
			return nil, fmt.Errorf("new session: %w", err)
		}
	}
	for _, r := range cfg.Rules {
		if err := p.add(r); err != nil {
			return nil, fmt.Errorf("new session: %s rule from %s: %w", r.Kind, r.Source, err)
		}
	}
	return p, nil
}

// authorizeTool returns nil when the call may run, or an error for the
// model saying why not and, in headless runs, how to allow it. hook is
// what the call's PreToolUse hooks decided: allow skips the card, ask
// shows it; neither overrides a deny or ask rule. The allowed-tools of
// the agent's active skills narrow what runs without asking.
func (p *permissions) authorizeTool(ctx context.Context, a *Agent, tool tools.Tool, callID string, args json.RawMessage, hook string) error {
	name := tool.Name()
	mode := p.currentMode()
	if mode == AgentModePlan && !tool.ReadOnly() {
		return fmt.Errorf("%s was not run: the session is in plan mode, where only read-only tools run; "+
			"finish the plan, and the person switches the mode when it should be carried out", name)
	}
	call := rules.CallOf(name, args, p.workspace)
	standing := p.snapshot()
	// Deny and ask rules bind every agent; standing allow rules are the
	// main agent's, and a child's come from its card and its file.
	verdict, rule := rules.Set{Deny: standing.Deny, Ask: standing.Ask}.Decide(call)
	if verdict == rules.Denied {
		return fmt.Errorf("%s is denied by the rule deny %s%s; do not retry it, or ask the person to change the rule", name, rule, unclear(call))
	}
	allowed := rules.Covered(standing.Allow, call)
	if a.rules != nil {
		own, ownRule := a.rules.own.DecideScopedFirst(call)
		switch own {
		case rules.Denied:
			return fmt.Errorf("%s is denied by this agent's own rule %s%s; use another way, or report that you cannot", name, ownRule, unclear(call))
		case rules.Asked:
			if verdict != rules.Asked {
				verdict, rule = rules.Asked, ownRule
			}
		}
		allowed = own == rules.Allowed || a.rules.covers(call)
	}
	unasked := allowed || tool.ReadOnly()
	narrow, skillNames, narrowed := a.skills.narrowing()
	outside := narrowed && !rules.Covered(narrow, call)
	if outside {
		unasked = false
	}
	switch {
	case p.mode == ModeYolo:
		return nil
	case verdict == rules.Asked && p.mode == ModeHeadless:
		return fmt.Errorf("%s needs approval (rule ask %s%s) and a headless run cannot ask", name, rule, unclear(call))
	case verdict == rules.Asked:
	case hook == hooks.Ask && p.mode == ModeHeadless:
		return fmt.Errorf("%s needs approval (a PreToolUse hook asked for it) and a headless run cannot ask", name)
	case hook == hooks.Ask:
	case hook == hooks.Allow || unasked:
		return nil
	case mode == AgentModeAutoAccept && !outside && slices.Contains(editTools, name):
		return nil
	case outside && p.mode == ModeHeadless:
		return fmt.Errorf("%s is not among the tools the active skill %s lets run without asking (its allowed-tools), and a headless run cannot ask", name, skillNames)
	case p.mode == ModeHeadless:
		how := fmt.Sprintf("--allow %s (or --yolo)", name)
		if narrow := suggestion(call); narrow != name {
			how = fmt.Sprintf("--allow %q (or --allow %s, or --yolo)", narrow, name)
		}
		return fmt.Errorf("%s needs approval and a headless run cannot ask; re-run with %s to let it run", name, how)
	}
	forced := verdict == rules.Asked || hook == hooks.Ask || outside
	return p.askTool(ctx, a, tool, callID, args, question{agent: a, call: call, forced: forced})
}

// unclear explains a command that every deny and ask rule covers
// because rules cannot tell what it runs.
func unclear(call rules.Call) string {
	if why := call.Unclear(); why != "" {
		return "; " + why + ", so every deny and ask rule covers it: name the program plainly"
	}
	return ""
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
func (p *permissions) askTool(ctx context.Context, a *Agent, tool tools.Tool, callID string, args json.RawMessage, q question) error {
	call := q.call
	name := tool.Name()
	preview := ""
	if pv, ok := tool.(tools.Previewer); ok {
		var err error
		if preview, err = pv.Preview(ctx, args); err != nil {
			return err
		}
	}
	req := event.NewApprovalRequest(p.ids.approval(), event.ApproveTool)
	req.CallID, req.Tool, req.Args, req.Preview = callID, name, string(args), preview
	req.Worktree = a.worktree
	always, folder := rules.Suggest(call), rules.SuggestFolder(call)
	req.Always, req.AlwaysLabel = rules.Strings(always), rules.Describe(always)
	req.AlwaysFolder, req.AlwaysFolderLabel = rules.Strings(folder), rules.Describe(folder)
	ans := p.ask(ctx, a.emit, a.stamp, req, q)
	switch ans.Decision {
	case event.AllowAlways:
		added := p.rememberAnswer(a, req, ans)
		p.waiting.settle(event.ApproveTool, func(w *question) bool {
			return w.agent == a && !w.forced && rules.Covered(added, w.call)
		})
		return nil
	case event.Allow:
		return nil
	}
	return &deniedError{tool: name, reason: ans.Reason}
}

// rememberAnswer keeps the rules an "always" answer chose, if the
// request offered them: for the main agent as standing rules, for a child
// as its own. An answer naming no offered rule allows this call only. It
// returns the rules kept.
func (p *permissions) rememberAnswer(a *Agent, req *event.ApprovalRequest, ans event.Answer) []rules.Rule {
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
		if a.rules != nil {
			a.rules.add(r)
			continue
		}
		p.mu.Lock()
		p.standing = appendRule(p.standing, standingRule{kind: rules.Allow, rule: r, source: event.SourceSession})
		p.mu.Unlock()
	}
	return added
}

// covers says whether a child's inherited or added rules allow call.
func (r *agentRules) covers(call rules.Call) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return rules.Covered(append(slices.Clip(r.inherited), r.added...), call)
}

// add keeps a rule a child's own card allowed "always".
func (r *agentRules) add(rule rules.Rule) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.added = append(r.added, rule)
}

// deniedError is a call the person refused: its text is for the model,
// and the executor marks the call denied for people.
type deniedError struct {
	tool, reason string
}

// Error implements error.
func (e *deniedError) Error() string {
	if e.reason != "" {
		return fmt.Sprintf("the person denied this %s call: %s", e.tool, e.reason)
	}
	return fmt.Sprintf("the person denied this %s call; do not retry it unchanged", e.tool)
}

// ask publishes req, about q, and waits for the answer or the end of ctx.
func (p *permissions) ask(ctx context.Context, emit func(event.Event), stamp func() event.Meta, req *event.ApprovalRequest, q question) event.Answer {
	p.waiting.add(req, q)
	emit(event.ApprovalRequested{Meta: stamp(), Request: req})
	if p.notify != nil {
		p.notify(req)
	}
	return p.await(ctx, emit, stamp, req)
}

// await waits for a published request's answer or the end of ctx, and
// records who answered: the person, a choice they remembered for another
// card, or the cancellation.
func (p *permissions) await(ctx context.Context, emit func(event.Event), stamp func() event.Meta, req *event.ApprovalRequest) event.Answer {
	ans := req.Wait(ctx)
	by := "person"
	switch {
	case p.waiting.done(req):
		by = "remembered"
	case ctx.Err() != nil:
		by = "cancellation"
	}
	emit(event.ApprovalResolved{Meta: stamp(), RequestID: req.ID, Answer: ans, By: by})
	return ans
}
