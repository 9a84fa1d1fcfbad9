package agenttypes

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// maxTimeout bounds a file's timeout; more is a typo, not a plan.
const maxTimeout = 24 * time.Hour

func applyModel(p *fileParser, t *Type, e entry) error {
	m, ok := scalar(e.value)
	if !ok {
		p.warn(e.line, "%s must be text such as inherit, an alias or a model id; using inherit", e.key)
		return nil
	}
	if m = strings.TrimSpace(m); m != "" && !strings.EqualFold(m, InheritModel) {
		t.Model = m
	}
	return nil
}

func applyColor(p *fileParser, t *Type, e entry) error {
	c, ok := scalar(e.value)
	if !ok {
		p.warn(e.line, "%s must be a colour name or hex; ignored", e.key)
		return nil
	}
	t.Color = strings.TrimSpace(c)
	return nil
}

func applySteps(p *fileParser, t *Type, e entry) error {
	s, _ := scalar(e.value)
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 0 {
		p.warn(e.line, "%s must be a whole number of steps, 0 or more; ignored", e.key)
		return nil
	}
	t.MaxSteps = n
	return nil
}

// applyTimeout reads timeout_s (seconds) or Gemini's timeout_mins.
func applyTimeout(p *fileParser, t *Type, e entry) error {
	unit, unitName := time.Second, "seconds"
	if e.norm == "timeoutmins" {
		unit, unitName = time.Minute, "minutes"
	}
	s, _ := scalar(e.value)
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || !(f >= 0) || f*float64(unit) > float64(maxTimeout) {
		p.warn(e.line, "%s must be a number of %s, 0 or more and at most %g hours; ignored", e.key, unitName, maxTimeout.Hours())
		return nil
	}
	t.Timeout = time.Duration(f * float64(unit))
	return nil
}

func applyCapabilities(p *fileParser, t *Type, e entry) error {
	list, ok := p.items(e.key, e.value)
	if !ok {
		p.warn(e.line, "%s must be a comma-separated string or a list; ignored", e.key)
		return nil
	}
	for _, it := range list {
		t.Capabilities = appendNew(t.Capabilities, strings.ToLower(it.text))
	}
	return nil
}

func applyEffort(p *fileParser, t *Type, e entry) error {
	s, _ := scalar(e.value)
	switch effort := strings.ToLower(strings.TrimSpace(s)); effort {
	case "low", "medium", "high":
		t.Effort = effort
	default:
		p.warn(e.line, "%s must be low, medium or high; ignored", e.key)
	}
	return nil
}

// applyMode reads OpenCode's mode: a primary agent is a main agent, so it
// is not offered for delegation.
func applyMode(p *fileParser, t *Type, e entry) error {
	s, _ := scalar(e.value)
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "primary":
		t.Hidden = true
	case "subagent", "all":
	default:
		p.warn(e.line, "%s must be subagent, primary or all; ignored", e.key)
	}
	return nil
}

func applyHidden(p *fileParser, t *Type, e entry) error {
	if b, ok := p.boolean(e); ok {
		t.Hidden = t.Hidden || b
	}
	return nil
}

func applyDisable(p *fileParser, t *Type, e entry) error {
	if b, ok := p.boolean(e); ok {
		t.Disabled = b
	}
	return nil
}

// boolean reads true/false (and YAML 1.1's yes/no, which people still write).
func (p *fileParser) boolean(e entry) (bool, bool) {
	var b bool
	if n := deref(e.value); n.Kind != yaml.ScalarNode || n.Decode(&b) != nil {
		p.warn(e.line, "%s must be true or false; ignored", e.key)
		return false, false
	}
	return b, true
}

// item is one name from a list field, with its file line.
type item struct {
	text string
	line int
}

// items reads a list field written as a comma-separated string or a YAML
// list (whose entries may hold commas too). ok is false for a mapping.
func (p *fileParser) items(key string, n *yaml.Node) (list []item, ok bool) {
	n = deref(n)
	switch n.Kind {
	case yaml.ScalarNode:
		s, _ := scalar(n)
		return splitItems(s, lineOf(n)), true
	case yaml.SequenceNode:
		for _, c := range n.Content {
			s, ok := scalar(c)
			if !ok {
				p.warn(lineOf(c), "%s: ignored an entry that is not text", key)
				continue
			}
			list = append(list, splitItems(s, lineOf(c))...)
		}
		return list, true
	}
	return nil, false
}

// splitItems splits at commas outside parentheses, so Claude Code's
// "Bash(git diff:*, git log:*)" stays one entry.
func splitItems(s string, line int) []item {
	var out []item
	depth, start := 0, 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] != ',' {
			switch s[i] {
			case '(':
				depth++
			case ')':
				depth = max(depth-1, 0)
			}
			continue
		}
		if i < len(s) && depth > 0 {
			continue
		}
		if text := strings.TrimSpace(s[start:i]); text != "" {
			out = append(out, item{text: text, line: line})
		}
		start = i + 1
	}
	return out
}

// scalar returns a scalar node's text, following an alias; YAML's null
// and an absent node read as "". ok is false for lists and mappings.
func scalar(n *yaml.Node) (string, bool) {
	n = deref(n)
	switch {
	case n.Kind == 0:
		return "", true
	case n.Kind != yaml.ScalarNode:
		return "", false
	case n.ShortTag() == "!!null":
		return "", true
	}
	return n.Value, true
}

// deref follows an alias to its anchor and never returns nil, so callers
// can read Kind without checks.
func deref(n *yaml.Node) *yaml.Node {
	if n == nil {
		return &yaml.Node{}
	}
	if n.Kind == yaml.AliasNode {
		if n.Alias == nil {
			return &yaml.Node{}
		}
		return n.Alias
	}
	return n
}

// lineOf is the file line of a header node.
func lineOf(n *yaml.Node) int { return n.Line + headerOffset }

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// applySampling reads OpenCode's temperature and top_p, sent in the
// child's requests; a value outside what the APIs accept is ignored.
func applySampling(p *fileParser, t *Type, e entry) error {
	s, _ := scalar(e.value)
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	limit := 2.0
	if e.norm == "topp" {
		limit = 1
	}
	if err != nil || !(f >= 0 && f <= limit) {
		p.warn(e.line, "%s must be a number from 0 to %g; ignored", e.key, limit)
		return nil
	}
	if e.norm == "topp" {
		t.TopP = &f
	} else {
		t.Temperature = &f
	}
	return nil
}
