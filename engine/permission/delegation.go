package permission

import (
	"context"
	"fmt"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/rules"
)

// Delegate starts deciding a delegation, a call of the tool named tool
// that starts a child of typeName: by the rules and flags in headless and
// yolo runs, from a remembered choice, or by asking the person. The question is published at once, so cards appear in the
// order children were requested; the returned function waits for the
// answer, and asked says whether a person has to give it.
//
// The card lists the standing allow rules the child would inherit; the
// child gets them only when the card is approved. A remembered approval
// gives later children of the type what the approved card listed.
func (p *Policy) Delegate(child Who, grants *Grants, tool, typeName string, preview *event.DelegationPreview) (answer func(context.Context) event.Answer, asked bool) {
	inherits := p.inheritable(preview.Tools)
	preview.Inherits = rules.Strings(inherits)
	decided := func(a event.Answer, grant []rules.Rule) (func(context.Context) event.Answer, bool) {
		grants.inherit(grant)
		return func(context.Context) event.Answer { return a }, false
	}
	task := rules.Call{Tool: tool}
	verdict, rule := p.snapshot().Decide(task)
	// The verify commands the call asks for are commands the person's
	// rules decide like any other: a denied one refuses the delegation,
	// and one an ask rule covers is put to the person on the card.
	checks, checkRule, check := p.verifyVerdict(preview.Verify)
	switch {
	case verdict == rules.Denied:
		return decided(event.Answer{Decision: event.Deny, Reason: "delegation is denied by the rule deny " + rule.String()}, nil)
	case checks == rules.Denied:
		return decided(event.Answer{Decision: event.Deny, Reason: fmt.Sprintf("its verify command %q is denied by the rule deny %s", check, checkRule)}, nil)
	case checks == rules.Asked && p.mode == Headless:
		return decided(event.Answer{Decision: event.Deny, Reason: fmt.Sprintf("its verify command %q needs approval (ask %s) and a headless run cannot ask", check, checkRule)}, nil)
	case checks == rules.Asked && p.mode != Yolo:
		// Neither an allow rule nor a remembered choice answers it.
	case p.mode == Yolo || verdict == rules.Allowed:
		return decided(event.Answer{Decision: event.Allow}, inherits)
	case p.mode == Headless:
		return decided(event.Answer{Decision: event.Deny, Reason: "delegation needs approval and a headless run cannot ask; re-run with --allow task (or --yolo) to let sub-agents run"}, nil)
	}
	if grant, ok := p.rememberedType(typeName); ok && checks != rules.Asked {
		child.Emit(event.ApprovalResolved{Meta: child.stamp(), Answer: event.Answer{Decision: event.Allow}, By: "remembered"})
		return decided(event.Answer{Decision: event.Allow}, grant)
	}
	req := p.Request(event.ApproveDelegation)
	req.CallID, req.Delegation = child.Meta.TaskCall, preview
	p.waiting.add(req, question{typeName: typeName})
	child.Emit(event.ApprovalRequested{Meta: child.stamp(), Request: req})
	p.published(req)
	return func(ctx context.Context) event.Answer {
		ans := p.await(ctx, child, req)
		if ans.Decision == event.Deny {
			return ans
		}
		grants.inherit(inherits)
		if ans.Decision == event.AllowAlways {
			p.mu.Lock()
			p.rememberedTypes[typeName] = inherits
			p.mu.Unlock()
			// The delegations of the type already waiting go ahead too.
			p.waiting.settle(event.ApproveDelegation, func(w *question) bool { return w.typeName == typeName })
		}
		return ans
	}, true
}

// verifyVerdict is how the rules decide the strictest of a delegation's
// verify commands: Denied, else Asked, with the rule and the command;
// None when no deny or ask rule covers any.
func (p *Policy) verifyVerdict(commands []string) (rules.Verdict, rules.Rule, string) {
	set := p.snapshot()
	verdict, rule, command := rules.None, rules.Rule{}, ""
	for _, cmd := range commands {
		switch v, r := set.Decide(rules.CommandCall(cmd)); {
		case v == rules.Denied:
			return v, r, cmd
		case v == rules.Asked && verdict != rules.Asked:
			verdict, rule, command = v, r, cmd
		}
	}
	return verdict, rule, command
}

// rememberedType returns what an "always" for the type granted.
func (p *Policy) rememberedType(name string) ([]rules.Rule, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	grant, ok := p.rememberedTypes[name]
	return grant, ok
}

// OwnRules parses an agent type's own rules; a rule that does not parse
// makes the type unusable rather than silently wider. (A project agent
// that allows anything loads only in a trusted folder: agenttypes
// withholds it otherwise.)
func OwnRules(typ agenttypes.Type) (rules.Set, []string, error) {
	var set rules.Set
	var shown []string
	for _, group := range []struct {
		kind  rules.Kind
		texts []string
	}{{rules.Deny, typ.Permissions.Deny}, {rules.Ask, typ.Permissions.Ask}, {rules.Allow, typ.Permissions.Allow}} {
		for _, text := range group.texts {
			r, err := rules.Parse(text)
			if err != nil {
				return rules.Set{}, nil, err
			}
			set.Add(group.kind, r)
			shown = append(shown, string(group.kind)+" "+r.String())
		}
	}
	return set, shown, nil
}
