package engine

import (
	"fmt"
	"slices"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/rules"
)

// snapshot groups the standing rules by kind, copied so deciding never
// holds the lock while it asks.
func (p *permissions) snapshot() rules.Set {
	p.mu.Lock()
	defer p.mu.Unlock()
	var s rules.Set
	for _, r := range p.standing {
		s.Add(r.kind, r.rule)
	}
	return s
}

// add parses and keeps one standing rule.
func (p *permissions) add(pr event.PermissionRule) error {
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

// list returns the standing rules for people, deny first.
func (p *permissions) list() []event.PermissionRule {
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

// remove drops a standing rule of the given kind and text.
func (p *permissions) remove(kind, text string) error {
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
func (p *permissions) inheritable(toolNames []string) []rules.Rule {
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

// Rules lists the session's standing rules: config files, flags and what
// the person added.
func (s *Session) Rules() []event.PermissionRule { return s.perms.list() }

// AddRule adds a standing rule for the rest of the session; its Source
// is set to the session.
func (s *Session) AddRule(r event.PermissionRule) error {
	r.Source = event.SourceSession
	if err := s.perms.add(r); err != nil {
		return fmt.Errorf("add rule: %w", err)
	}
	return nil
}

// RemoveRule drops a standing rule for the rest of the session.
func (s *Session) RemoveRule(kind, rule string) error {
	if err := s.perms.remove(kind, rule); err != nil {
		return fmt.Errorf("remove rule: %w", err)
	}
	return nil
}
