package rules

import (
	"fmt"
	"slices"
	"strings"
)

// Kind is what a rule does to the calls it covers.
type Kind string

// The three kinds; deny beats ask beats allow.
const (
	Allow Kind = "allow"
	Ask   Kind = "ask"
	Deny  Kind = "deny"
)

// Kinds lists the kinds in the order they are decided.
var Kinds = []Kind{Deny, Ask, Allow}

// ParseKind reads a kind's name.
func ParseKind(s string) (Kind, error) {
	if k := Kind(s); slices.Contains(Kinds, k) {
		return k, nil
	}
	return "", fmt.Errorf("unknown rule kind %q (allow, ask or deny)", s)
}

// Verdict is what a set of rules says about a call.
type Verdict int

// The verdicts; None leaves the call to the tool's default (read-only
// tools run, the others ask).
const (
	None Verdict = iota
	Allowed
	Asked
	Denied
)

// Set is rules grouped by kind.
type Set struct {
	Allow, Ask, Deny []Rule
}

// Add puts r among the rules of kind k, once.
func (s *Set) Add(k Kind, r Rule) {
	list := s.list(k)
	if !slices.ContainsFunc(*list, func(o Rule) bool { return o.String() == r.String() }) {
		*list = append(*list, r)
	}
}

// list is the slice holding kind k.
func (s *Set) list(k Kind) *[]Rule {
	switch k {
	case Deny:
		return &s.Deny
	case Ask:
		return &s.Ask
	}
	return &s.Allow
}

// Decide applies deny, then ask, then allow, and returns the verdict with
// the rule that decided it (the zero Rule for an allow that took several).
func (s Set) Decide(c Call) (Verdict, Rule) {
	if r, ok := touching(s.Deny, c); ok {
		return Denied, r
	}
	if r, ok := touching(s.Ask, c); ok {
		return Asked, r
	}
	if Covered(s.Allow, c) {
		return Allowed, Rule{}
	}
	return None, Rule{}
}

// DecideScopedFirst decides the way an agent file's own rules read: what
// a pattern names is decided first (deny, ask, allow), and a bare tool
// name is the fallback for everything else, as in OpenCode's
// bash: {"git diff*": allow, "*": deny}.
func (s Set) DecideScopedFirst(c Call) (Verdict, Rule) {
	scoped, bare := s.split()
	if v, r := scoped.Decide(c); v != None {
		return v, r
	}
	return bare.Decide(c)
}

// split separates scoped rules from bare ones.
func (s Set) split() (scoped, bare Set) {
	for _, k := range Kinds {
		for _, r := range *s.list(k) {
			if r.Scoped {
				scoped.Add(k, r)
			} else {
				bare.Add(k, r)
			}
		}
	}
	return scoped, bare
}

// touching finds a rule covering any part of c.
func touching(list []Rule, c Call) (Rule, bool) {
	for _, r := range list {
		if r.Touches(c) {
			return r, true
		}
	}
	return Rule{}, false
}

// Covered says whether allow rules cover all of c: for a command, every
// part by some rule (go build && go test is covered by go build:* and go
// test:* together). A rule for a prefix does not cover the scripts a
// command hands a shell (sort --compress-program='rm -rf ~' f is not
// covered by sort:*): those must be covered too, unless every part was
// allowed as exactly the command it is. A command the shell reader
// cannot read is covered by no scoped rule: allow fails closed, as deny
// and ask do.
func Covered(allow []Rule, c Call) bool {
	if c.Tool != CommandTool {
		return slices.ContainsFunc(allow, func(r Rule) bool { return r.Matches(c) })
	}
	if slices.ContainsFunc(allow, func(r Rule) bool { return r.Tool == CommandTool && !r.Scoped }) {
		return true
	}
	if len(c.parts) == 0 || c.unreadable {
		return false
	}
	exactly := true // every part allowed as exactly the command it is
	for _, p := range c.parts {
		if !slices.ContainsFunc(allow, func(r Rule) bool { return r.Tool == CommandTool && r.coversPart(p) }) {
			return false
		}
		exactly = exactly && slices.ContainsFunc(allow, func(r Rule) bool { return r.Tool == CommandTool && !r.Prefix && r.coversPart(p) })
	}
	if exactly {
		return true
	}
	for _, cmd := range c.commands {
		if cmd.Depth > 0 && !slices.ContainsFunc(allow, func(r Rule) bool { return r.Tool == CommandTool && r.coversCommand(cmd) }) {
			return false
		}
	}
	return true
}

// Strings writes rules back in their text form.
func Strings(list []Rule) []string {
	out := make([]string, len(list))
	for i, r := range list {
		out[i] = r.String()
	}
	return out
}

// Describe says what rules cover in a person's words, for a card: "go
// test …" for a command prefix, the command itself, a file rule's glob,
// a host; a bare tool's name.
func Describe(list []Rule) string {
	labels := make([]string, 0, len(list))
	for _, r := range list {
		switch {
		case !r.Scoped:
			labels = append(labels, r.String())
		case r.Tool == CommandTool && r.Prefix:
			labels = append(labels, fmt.Sprintf("%q", strings.Join(r.Words, " ")+" …"))
		case r.Tool == CommandTool:
			labels = append(labels, fmt.Sprintf("%q", strings.Join(r.Words, " ")))
		case r.Domain != "":
			labels = append(labels, r.Domain)
		default:
			labels = append(labels, r.Glob)
		}
	}
	return strings.Join(labels, ", ")
}

// ParseAll parses rule texts, stopping at the first bad one.
func ParseAll(texts []string) ([]Rule, error) {
	out := make([]Rule, 0, len(texts))
	for _, t := range texts {
		r, err := Parse(t)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}
