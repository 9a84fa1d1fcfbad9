package permission

import (
	"fmt"
	"slices"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/rules"
)

// snapshot groups the standing rules by kind, copied so deciding never
// holds the lock while it asks.
func (p *Policy) snapshot() rules.Set {
	p.mu.Lock()
	defer p.mu.Unlock()
	var s rules.Set
	for _, r := range p.standing {
		s.Add(r.kind, r.rule)
	}
	return s
}

// add parses and keeps one standing rule.
func (p *Policy) add(pr event.PermissionRule) error {
	kind, err := rules.ParseKind(pr.Kind)
	if err != nil {
		return err
	}
	r, err := rules.Parse(pr.Rule)
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.standing = appendRule(p.standing, standingRule{kind: kind, rule: r, source: pr.Source})
	return nil
}

// appendRule adds r unless the same kind and rule is already there.
func appendRule(list []standingRule, r standingRule) []standingRule {
	if slices.ContainsFunc(list, func(o standingRule) bool { return o.kind == r.kind && o.rule.String() == r.rule.String() }) {
		return list
	}
	return append(list, r)
}

// Rules returns the standing rules for people, deny first.
func (p *Policy) Rules() []event.PermissionRule {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []event.PermissionRule
	for _, kind := range rules.Kinds {
		for _, r := range p.standing {
			if r.kind == kind {
				out = append(out, event.PermissionRule{Kind: string(r.kind), Rule: r.rule.String(), Source: r.source})
			}
		}
	}
	return out
}

// Remove drops a standing rule of the given kind and text.
func (p *Policy) Remove(kind, text string) error {
	r, err := rules.Parse(text)
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	before := len(p.standing)
	p.standing = slices.DeleteFunc(p.standing, func(o standingRule) bool {
		return string(o.kind) == kind && o.rule.String() == r.String()
	})
	if len(p.standing) == before {
		return fmt.Errorf("no %s rule %s", kind, r)
	}
	return nil
}

// inheritable are the standing allow rules about tools a child has: what
// its delegation card offers it.
func (p *Policy) inheritable(toolNames []string) []rules.Rule {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []rules.Rule
	for _, r := range p.standing {
		if r.kind == rules.Allow && slices.Contains(toolNames, r.rule.Tool) {
			out = append(out, r.rule)
		}
	}
	return out
}

// Add keeps a standing rule the person added for the rest of the session.
func (p *Policy) Add(r event.PermissionRule) error {
	r.Source = event.SourceSession
	return p.add(r)
}
