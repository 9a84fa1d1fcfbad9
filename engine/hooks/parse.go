package hooks

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/seed-e4e525a6/baton/engine/rules"
)

// maxHooksPerFile bounds what one file may configure; a real file holds
// a handful.
const maxHooksPerFile = 200

// ParseSettings reads the hooks of a settings file in Claude Code's JSON
// form ({"hooks": {…}}, other keys ignored). Hooks baton cannot run
// (another type, an event it does not have) are notices, not errors;
// JSON that is not a settings object is an error naming the file.
func ParseSettings(data []byte, source string, project bool) ([]Hook, []string, error) {
	var file struct {
		Hooks json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", source, err)
	}
	if len(file.Hooks) == 0 || string(file.Hooks) == "null" {
		return nil, nil, nil
	}
	return ParseTable(file.Hooks, source, project)
}

// ParseTable reads the "hooks" object itself: event names mapping to
// lists of {matcher, hooks: [{type, command, timeout}]}. baton's config
// writes the same shape in TOML ([[hooks.PreToolUse]]).
func ParseTable(data json.RawMessage, source string, project bool) ([]Hook, []string, error) {
	var table map[string]json.RawMessage
	if err := json.Unmarshal(data, &table); err != nil {
		return nil, nil, fmt.Errorf("%s: hooks must map event names to lists of matchers: %w", source, err)
	}
	events := make([]string, 0, len(table))
	for name := range table {
		events = append(events, name)
	}
	slices.Sort(events)
	var (
		out     []Hook
		notices []string
	)
	for _, name := range events {
		if !slices.Contains(Events, Event(name)) {
			notices = append(notices, fmt.Sprintf("%s: hooks.%s: baton has no %s event; those hooks are not run", source, name, name))
			continue
		}
		var groups []struct {
			Matcher *string           `json:"matcher"`
			Hooks   []json.RawMessage `json:"hooks"`
		}
		if err := json.Unmarshal(table[name], &groups); err != nil {
			return nil, notices, fmt.Errorf("%s: hooks.%s must be a list of {matcher, hooks}: %w", source, name, err)
		}
		for i, g := range groups {
			where := fmt.Sprintf("%s: hooks.%s[%d]", source, name, i)
			base := Hook{Event: Event(name), Source: source, Project: project}
			if g.Matcher != nil {
				base.Matcher = *g.Matcher
			}
			if err := base.compile(); err != nil {
				notices = append(notices, fmt.Sprintf("%s: %v; not run", where, err))
				continue
			}
			for j, raw := range g.Hooks {
				h, note := parseCommand(base, raw)
				if note != "" {
					notices = append(notices, fmt.Sprintf("%s.hooks[%d]: %s", where, j, note))
					continue
				}
				if len(out) == maxHooksPerFile {
					return out, append(notices, fmt.Sprintf("%s: more than %d hooks; the rest are not run", source, maxHooksPerFile)), nil
				}
				out = append(out, h)
			}
		}
	}
	return out, notices, nil
}

// commandFields are a hook entry as written; the fields baton does not
// use (statusMessage, once, async, onFailure, shell) are accepted.
type commandFields struct {
	Type    string   `json:"type"`
	Command string   `json:"command"`
	Args    []string `json:"args"`
	If      string   `json:"if"`
	Timeout *float64 `json:"timeout"`
}

// parseCommand reads one entry of a matcher's hooks, or says why it is
// not run.
func parseCommand(base Hook, raw json.RawMessage) (Hook, string) {
	var f commandFields
	if err := json.Unmarshal(raw, &f); err != nil {
		return Hook{}, "not a hook entry: " + err.Error()
	}
	if f.Type == "" && f.Command != "" {
		f.Type = "command"
	}
	if f.Type != "command" {
		return Hook{}, fmt.Sprintf("type %q hooks are not run by baton (only command hooks are)", f.Type)
	}
	if strings.TrimSpace(f.Command) == "" {
		return Hook{}, "a command hook without a command"
	}
	h := base
	h.Command, h.Args, h.If = f.Command, f.Args, f.If
	if f.Timeout != nil {
		secs := *f.Timeout
		if !(secs > 0) {
			return Hook{}, fmt.Sprintf("timeout must be a positive number of seconds, got %v", secs)
		}
		h.Timeout = min(time.Duration(secs*float64(time.Second)), MaxTimeout)
	}
	if f.If != "" {
		text, err := rules.FromClaude(f.If, "")
		var r rules.Rule
		if err == nil {
			r, err = rules.Parse(text)
		}
		if err != nil {
			return Hook{}, fmt.Sprintf("if %q: %v", f.If, err)
		}
		h.ifRule = &r
	}
	return h, ""
}

// simpleMatcher is a matcher Claude Code compares as names, not as a
// regular expression: "Bash", "Edit|Write".
func simpleMatcher() *regexp.Regexp {
	simpleMatcherOnce.Do(func() { simpleMatcherValue = regexp.MustCompile(`^[A-Za-z0-9_|]+$`) })
	return simpleMatcherValue
}

// simpleMatcherOnce and simpleMatcherValue hold it, built on first use (a zero
// sync.Once costs nothing at start; sync.OnceValue is init code).
var (
	simpleMatcherOnce  sync.Once
	simpleMatcherValue *regexp.Regexp
)

// compile prepares the matcher.
func (h *Hook) compile() error {
	m := strings.TrimSpace(h.Matcher)
	switch {
	case m == "" || m == "*":
	case simpleMatcher().MatchString(m):
		h.names = strings.Split(m, "|")
	default:
		re, err := regexp.Compile(m)
		if err != nil {
			return fmt.Errorf("matcher %q is not a regular expression: %w", h.Matcher, err)
		}
		h.re = re
	}
	return nil
}
