package agenttypes

import (
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// ACPAgent is the program an acp-runner type runs: another agent speaking
// the Agent Client Protocol on its standard input and output (Gemini
// CLI's --experimental-acp, OpenCode's acp, Claude Code's adapter,
// another baton's acp). Its key and config are its own: Env is all the
// file adds to an environment baton has cleaned of its secrets.
type ACPAgent struct {
	Command string
	Args    []string
	Env     map[string]string
}

// applyACP reads acp: {command, args, env}; a type with one runs on the
// acp runner.
func applyACP(p *fileParser, t *Type, e entry) error {
	m := deref(e.value)
	if m.Kind != yaml.MappingNode {
		p.warn(e.line, "%s must be a map such as {command: gemini, args: [--experimental-acp]}; ignored", e.key)
		return nil
	}
	a := &ACPAgent{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		key, _ := scalar(deref(m.Content[i]))
		val, line := deref(m.Content[i+1]), lineOf(m.Content[i])
		switch strings.ToLower(strings.TrimSpace(key)) {
		case "command":
			s, ok := scalar(val)
			if !ok || strings.TrimSpace(s) == "" {
				p.warn(line, "%s.command must be a program name or path", e.key)
				continue
			}
			a.Command = strings.TrimSpace(s)
		case "args":
			if val.Kind != yaml.SequenceNode {
				p.warn(line, "%s.args must be a list; ignored", e.key)
				continue
			}
			for _, n := range val.Content {
				s, ok := scalar(deref(n))
				if !ok {
					p.warn(lineOf(n), "%s.args: ignored an entry that is not text", e.key)
					continue
				}
				a.Args = append(a.Args, s)
			}
		case "env":
			a.Env = p.envMap(e.key, val, line)
		default:
			p.warn(line, "%s.%s is not an acp setting (known: command, args, env); ignored", e.key, key)
		}
	}
	if a.Command == "" {
		return Warning{File: p.path, Line: e.line, Message: "skipped: " + e.key + " needs a command"}
	}
	t.ACP = a
	return nil
}

// envMap reads acp.env: names to values.
func (p *fileParser) envMap(key string, n *yaml.Node, line int) map[string]string {
	if n.Kind != yaml.MappingNode {
		p.warn(line, "%s.env must be a map of names to values; ignored", key)
		return nil
	}
	env := map[string]string{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		name, _ := scalar(deref(n.Content[i]))
		value, ok := scalar(deref(n.Content[i+1]))
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.ContainsAny(name, "=\x00") || strings.Contains(value, "\x00") {
			p.warn(lineOf(n.Content[i]), "%s.env: ignored %q, not a NAME: value pair", key, name)
			continue
		}
		env[name] = value
	}
	return env
}

// settleRunner makes acp: and runner: agree: acp: alone means runner acp,
// and runner: acp without acp: cannot run.
func settleRunner(p *fileParser, t *Type) error {
	switch {
	case t.ACP != nil && t.Runner == "":
		t.Runner = RunnerACP
	case t.ACP != nil && t.Runner != RunnerACP:
		p.warn(1, "acp: is used by runner: acp only, and this file says runner: %s; acp ignored", t.Runner)
		t.ACP = nil
	case t.ACP == nil && t.Runner == RunnerACP:
		return Warning{File: p.path, Line: 1, Message: "skipped: runner: acp needs acp: {command: …, args: […]}"}
	}
	return nil
}

// CommandLine is the agent's command line, for a card or a notice.
func (a *ACPAgent) CommandLine() string {
	return strings.Join(append([]string{a.Command}, a.Args...), " ")
}

// EnvNames are the names Env sets, sorted: what a card may show without
// the values, which may be keys.
func (a *ACPAgent) EnvNames() []string {
	names := make([]string, 0, len(a.Env))
	for name := range a.Env {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
