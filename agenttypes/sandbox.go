package agenttypes

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// applySandbox reads the sandbox map; its one key, network, says whether
// the type's commands may use the network ("on" or "off").
func applySandbox(p *fileParser, t *Type, e entry) error {
	m := deref(e.value)
	if m.Kind != yaml.MappingNode {
		p.warn(e.line, "%s must be a map such as {network: on}; ignored", e.key)
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		key, _ := scalar(deref(m.Content[i]))
		if !strings.EqualFold(strings.TrimSpace(key), "network") {
			p.warn(lineOf(m.Content[i]), "%s.%s is not a sandbox setting (known: network); ignored", e.key, key)
			continue
		}
		val := deref(m.Content[i+1])
		var on bool
		s, _ := scalar(val)
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "on":
			t.SandboxNetwork = "on"
		case "off":
			t.SandboxNetwork = "off"
		default:
			if val.Kind == yaml.ScalarNode && val.Decode(&on) == nil {
				t.SandboxNetwork = map[bool]string{true: "on", false: "off"}[on]
				continue
			}
			p.warn(lineOf(m.Content[i]), "%s.network must be on or off; ignored", e.key)
		}
	}
	return nil
}
