// Package rules is baton's permission rule language, in Claude Code's
// form: a bare tool name ("write_file") covers every call of the tool; a
// scoped rule covers some of them. run_command(go test:*) covers commands
// whose parsed words start with "go test", run_command(git status) that
// command exactly, and write_file(docs/**) the files a doublestar glob
// names, relative to the workspace. A compound command is covered only
// when each of its parts is, so an allowed prefix never lets a second
// command ride along behind && ; | or inside a subshell.
//
// The package parses and matches; who holds which rules, and what deny,
// ask and allow mean together, is the engine's business.
package rules

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// CommandTool is the tool whose rules name command prefixes.
const CommandTool = "run_command"

// FetchTool is the tool whose rules name the hosts it may reach, in
// Claude Code's form: web_fetch(domain:docs.example.com); a leading "*."
// covers every host below the domain (domain:*.example.com).
const FetchTool = "web_fetch"

// fileTools are the tools whose rules are path globs: each has a path
// argument naming a file or folder in the workspace.
var fileTools = []string{"write_file", "edit_file", "read_file", "list_files", "find_files", "grep"}

// Rule is one parsed rule.
type Rule struct {
	// Tool is the tool the rule is about; with AnyTool, a prefix of the
	// tools it covers (mcp__github__* covers every tool of that server).
	Tool    string
	AnyTool bool
	// Scoped is false for a bare tool name, which covers every call.
	Scoped bool
	// Prefix is true for a command rule ending in ":*".
	Prefix bool
	// Words are a command rule's words; Glob is a file rule's pattern;
	// Domain is a web_fetch rule's host, lower case.
	Words  []string
	Glob   string
	Domain string
}

// Parse reads one rule: "tool" or "tool(pattern)".
func Parse(s string) (Rule, error) {
	s = strings.TrimSpace(s)
	open := strings.IndexByte(s, '(')
	if prefix, ok := strings.CutSuffix(s, "*"); ok && open < 0 && strings.HasPrefix(prefix, "mcp__") {
		if err := checkName(prefix); err != nil {
			return Rule{}, fmt.Errorf("rule %q: %w", s, err)
		}
		return Rule{Tool: prefix, AnyTool: true}, nil
	}
	if open < 0 {
		if err := checkName(s); err != nil {
			return Rule{}, fmt.Errorf("rule %q: %w", s, err)
		}
		return Rule{Tool: s}, nil
	}
	name, pattern := s[:open], s[open+1:]
	if !strings.HasSuffix(pattern, ")") {
		return Rule{}, fmt.Errorf("rule %q: the pattern must end with ')'", s)
	}
	pattern = strings.TrimSpace(strings.TrimSuffix(pattern, ")"))
	if err := checkName(name); err != nil {
		return Rule{}, fmt.Errorf("rule %q: %w", s, err)
	}
	if pattern == "" {
		return Rule{}, fmt.Errorf("rule %q: the pattern is empty; write %s alone to cover every call", s, name)
	}
	r := Rule{Tool: name, Scoped: true}
	switch {
	case name == CommandTool:
		prefix := strings.TrimSuffix(pattern, ":*")
		r.Prefix = prefix != pattern
		words, ok := literalWords(prefix)
		if !ok || !writable(words) {
			return Rule{}, fmt.Errorf("rule %q: the command must be plain printable words (no $, backquotes, redirections or operators)", s)
		}
		r.Words = words
	case slices.Contains(fileTools, name):
		r.Glob = pattern
		for strings.HasPrefix(r.Glob, "./") {
			r.Glob = strings.TrimSpace(strings.TrimLeft(strings.TrimPrefix(r.Glob, "./"), "/"))
		}
		if r.Glob == "" {
			return Rule{}, fmt.Errorf("rule %q: the pattern names no file; write %s alone to cover every call", s, name)
		}
		if !doublestar.ValidatePattern(r.Glob) {
			return Rule{}, fmt.Errorf("rule %q: %q is not a valid glob", s, pattern)
		}
	case name == FetchTool:
		host, ok := strings.CutPrefix(pattern, "domain:")
		host = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(host)), ".")
		if !ok || !validDomain(host) {
			return Rule{}, fmt.Errorf("rule %q: write the host as domain:example.com (or domain:*.example.com for every host below it)", s)
		}
		r.Domain = host
	default:
		return Rule{}, fmt.Errorf("rule %q: %s takes no pattern; write %s alone", s, name, name)
	}
	return r, nil
}

// validDomain accepts a host name, optionally behind "*." : letters,
// digits, '-' and dots between non-empty labels.
func validDomain(host string) bool {
	host = strings.TrimPrefix(host, "*.")
	if host == "" || len(host) > 253 {
		return false
	}
	for _, label := range strings.Split(host, ".") {
		if label == "" {
			return false
		}
		for _, r := range label {
			if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
				return false
			}
		}
	}
	return true
}

// matchesHost says whether a web_fetch rule names host. A call whose
// host is unknown is named by none.
func (r Rule) matchesHost(host string) bool {
	if host == "" {
		return false
	}
	if below, ok := strings.CutPrefix(r.Domain, "*."); ok {
		return strings.HasSuffix(host, "."+below)
	}
	return host == r.Domain
}

// checkName accepts tool-like names: letters, digits, '_', '-' and '.'.
func checkName(name string) error {
	if name == "" {
		return errors.New("no tool name")
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return fmt.Errorf("%q is not a tool name", name)
		}
	}
	return nil
}

// String writes the rule back in the form Parse reads.
func (r Rule) String() string {
	switch {
	case r.AnyTool:
		return r.Tool + "*"
	case !r.Scoped:
		return r.Tool
	case r.Tool == CommandTool && r.Prefix:
		return fmt.Sprintf("%s(%s:*)", r.Tool, quoteWords(r.Words))
	case r.Tool == CommandTool:
		return fmt.Sprintf("%s(%s)", r.Tool, quoteWords(r.Words))
	case r.Tool == FetchTool:
		return fmt.Sprintf("%s(domain:%s)", r.Tool, r.Domain)
	}
	return fmt.Sprintf("%s(%s)", r.Tool, r.Glob)
}

// readers are the tools besides read_file that show what files hold or
// which files there are: a scoped read_file rule (deny read_file(.env))
// binds them too, so no other tool reads what it keeps from reading.
var readers = []string{"grep", "find_files", "list_files"}

// Matches says whether the rule covers the call as a whole: what an
// allow rule needs. For a command, that is every part; for a file, both
// the path the call names and the file it resolves to, so a link never
// carries an allowed name to another file. A deny or ask question is
// Touches.
func (r Rule) Matches(c Call) bool {
	if !r.names(c.Tool) {
		return false
	}
	if !r.Scoped {
		return true
	}
	if r.Tool == CommandTool {
		return Covered([]Rule{r}, c)
	}
	if r.Tool == FetchTool {
		return r.matchesHost(c.Host)
	}
	if !r.matchesPath(c.Path, c.Abs) {
		return false
	}
	return c.realAbs == "" || c.realAbs == c.Abs || r.matchesPath(c.real, c.realAbs)
}

// Touches says whether the rule covers any part of the call: what a deny
// or ask rule needs, since one forbidden part is enough to stop a
// compound command, and one name of a file enough to keep it. A command
// that cannot be read, or that runs a program only known when it runs,
// is touched by every command rule.
func (r Rule) Touches(c Call) bool {
	if !r.names(c.Tool) && !(r.Scoped && r.Tool == "read_file" && slices.Contains(readers, c.Tool)) {
		return false
	}
	if !r.Scoped {
		return true
	}
	if r.Tool == FetchTool {
		// A URL whose host cannot be read is touched by every rule:
		// deny and ask fail closed.
		return c.Host == "" || r.matchesHost(c.Host)
	}
	if r.Tool != CommandTool {
		return r.matchesPath(c.Path, c.Abs) || r.matchesPath(c.real, c.realAbs)
	}
	if c.unreadable {
		return true
	}
	for _, cmd := range c.commands {
		if r.touchesCommand(cmd) {
			return true
		}
	}
	return false
}

// names says whether the rule is about tool.
func (r Rule) names(tool string) bool {
	if r.AnyTool {
		return strings.HasPrefix(tool, r.Tool)
	}
	return r.Tool == tool
}

// matchesPath matches a file rule against a path relative to the
// workspace, or an absolute one for a rule written absolute.
func (r Rule) matchesPath(rel, abs string) bool {
	if strings.HasPrefix(r.Glob, "/") {
		ok, _ := doublestar.Match(r.Glob, abs)
		return abs != "" && ok
	}
	if rel == "" {
		return false
	}
	ok, _ := doublestar.Match(r.Glob, rel)
	return ok
}
