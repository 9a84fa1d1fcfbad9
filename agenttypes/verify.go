package agenttypes

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// applyVerify reads verify: one shell command, or a list of them run in
// order. A single string is one command whole, commas and all.
func applyVerify(p *fileParser, t *Type, e entry) error {
	n := deref(e.value)
	var cmds []string
	switch n.Kind {
	case yaml.ScalarNode:
		s, _ := scalar(n)
		cmds = append(cmds, s)
	case yaml.SequenceNode:
		for _, c := range n.Content {
			s, ok := scalar(c)
			if !ok {
				p.warn(lineOf(c), "%s: ignored an entry that is not text", e.key)
				continue
			}
			cmds = append(cmds, s)
		}
	default:
		p.warn(e.line, "%s must be a command or a list of commands; ignored", e.key)
		return nil
	}
	t.Verify = nil
	for _, c := range cmds {
		if c = strings.TrimSpace(c); c != "" {
			t.Verify = append(t.Verify, c)
		}
	}
	return nil
}
