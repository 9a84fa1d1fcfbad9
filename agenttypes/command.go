package agenttypes

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// Command is a custom slash command: a Markdown prompt template from a
// commands folder of Claude Code, OpenCode or baton. It is a prompt, not
// a permission: what it asks for runs under the same approvals as
// anything typed.
type Command struct {
	// Name is what follows "/": the path below the folder without ".md",
	// folders joined by ":" ("frontend:component").
	Name string
	// Description and ArgumentHint are shown in completion and /help.
	Description  string
	ArgumentHint string
	// Model is the model the file asks for ("" for none).
	Model string
	// Agent and Subtask are OpenCode's: with Subtask the prompt goes to a
	// sub-agent of type Agent (general-purpose when unset).
	Agent   string
	Subtask bool
	// Template is the body, with $ARGUMENTS and $1…$9 to fill.
	Template string
	// Source is the file the command was read from.
	Source string
}

// commandName is what a name may hold: letters, digits, - _ . and the
// ":" between folders; anything else could not be typed after "/".
func commandName() *regexp.Regexp {
	commandNameOnce.Do(func() { commandNameValue = regexp.MustCompile(`^[\p{L}\p{N}_.-]+(:[\p{L}\p{N}_.-]+)*$`) })
	return commandNameValue
}

// commandNameOnce and commandNameValue hold it, built on first use (a zero
// sync.Once costs nothing at start; sync.OnceValue is init code).
var (
	commandNameOnce  sync.Once
	commandNameValue *regexp.Regexp
)

// parseCommand reads one command file; the frontmatter is optional, as in
// both tools, and a file without a description is described by its
// first line.
func parseCommand(path, name string, data []byte) (Command, []Warning, error) {
	c := Command{Name: name, Source: path}
	if !commandName().MatchString(name) {
		return c, nil, Warning{File: path, Message: fmt.Sprintf("skipped: %q cannot be typed as a command name (letters, digits, - _ . only)", name)}
	}
	body := strings.ReplaceAll(strings.TrimPrefix(string(data), "\ufeff"), "\r\n", "\n")
	var warns []Warning
	if hasFrontmatter(data) {
		fm, err := readFrontmatter(path, quoteHints(data))
		if err != nil {
			return c, nil, err
		}
		body = fm.body
		warns = c.applyFields(path, fm.fields)
	}
	c.Template = strings.TrimSpace(body)
	if c.Template == "" {
		return c, warns, Warning{File: path, Message: "skipped: the command has no prompt"}
	}
	if c.Description == "" {
		c.Description = firstLine(c.Template)
	}
	return c, warns, nil
}

// applyFields takes the fields a command file may set; others (Claude
// Code's allowed-tools among them: a project's command grants nothing)
// are ignored.
func (c *Command) applyFields(path string, m *yaml.Node) []Warning {
	if m == nil {
		return nil
	}
	var (
		warns   []Warning
		subtask *bool // as written; unset follows agent
	)
	for i := 0; i+1 < len(m.Content); i += 2 {
		key, _ := scalar(deref(m.Content[i]))
		v := deref(m.Content[i+1])
		text, ok := scalar(v)
		if !ok || v.Kind != yaml.ScalarNode {
			warns = append(warns, Warning{File: path, Line: v.Line + headerOffset, Message: key + " must be text; ignored"})
			continue
		}
		text = strings.TrimSpace(text)
		switch strings.ToLower(key) {
		case "description":
			c.Description = oneLine(text)
		case "argument-hint", "argument_hint":
			c.ArgumentHint = oneLine(text)
		case "model":
			c.Model = text
		case "agent":
			c.Agent = text
		case "subtask":
			on, err := strconv.ParseBool(text)
			if err != nil {
				warns = append(warns, Warning{File: path, Line: v.Line + headerOffset, Message: "subtask must be true or false; ignored"})
				continue
			}
			subtask = &on
		}
	}
	// OpenCode runs a command naming a sub-agent as a sub-task unless
	// told not to; one naming its main agent, build, runs there.
	c.Subtask = c.Agent != "" && !strings.EqualFold(c.Agent, openCodeMainAgent)
	if subtask != nil {
		c.Subtask = *subtask
	}
	return warns
}

// openCodeMainAgent is OpenCode's default primary agent.
const openCodeMainAgent = "build"

// hintField is an unindented argument-hint line of a header.
func hintField() *regexp.Regexp {
	hintFieldOnce.Do(func() { hintFieldValue = regexp.MustCompile(`^(argument[-_]hint)\s*:\s*(.*?)\s*$`) })
	return hintFieldValue
}

// hintFieldOnce and hintFieldValue hold it, built on first use (a zero
// sync.Once costs nothing at start; sync.OnceValue is init code).
var (
	hintFieldOnce  sync.Once
	hintFieldValue *regexp.Regexp
)

// quoteHints quotes argument-hint values in the header: Claude Code's own
// examples write "argument-hint: [pr-number] [priority]", which YAML
// reads as a list or rejects, and Claude Code takes as text.
func quoteHints(data []byte) []byte {
	lines := strings.Split(string(data), "\n")
	for i := 1; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], "\r")
		if strings.TrimRight(line, " \t") == "---" {
			break
		}
		m := hintField().FindStringSubmatch(line)
		if m == nil || m[2] == "" || strings.HasPrefix(m[2], `"`) || strings.HasPrefix(m[2], "'") {
			continue
		}
		lines[i] = m[1] + ": " + strconv.Quote(m[2])
	}
	return []byte(strings.Join(lines, "\n"))
}

// oneLine collapses whitespace so a field stays on one line of a list.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// placeholder is $ARGUMENTS or $1…$9.
func placeholder() *regexp.Regexp {
	placeholderOnce.Do(func() { placeholderValue = regexp.MustCompile(`\$(ARGUMENTS|[1-9])`) })
	return placeholderValue
}

// placeholderOnce and placeholderValue hold it, built on first use (a zero
// sync.Once costs nothing at start; sync.OnceValue is init code).
var (
	placeholderOnce  sync.Once
	placeholderValue *regexp.Regexp
)

// Expand fills the template with args: $ARGUMENTS takes them whole, $1…$9
// the words (quotes group words, as in a shell); a missing word is
// empty. A template with no placeholder gets the arguments appended, so
// nothing typed is lost.
func (c Command) Expand(args string) string {
	args = strings.TrimSpace(args)
	words := SplitArgs(args)
	used := false
	out := placeholder().ReplaceAllStringFunc(c.Template, func(p string) string {
		used = true
		if p == "$ARGUMENTS" {
			return args
		}
		n := int(p[1] - '0')
		if n <= len(words) {
			return words[n-1]
		}
		return ""
	})
	if !used && args != "" {
		out += "\n\nArguments: " + args
	}
	return out
}

// SplitArgs splits on blanks, keeping "quoted words" and 'quoted words'
// together without their quotes.
func SplitArgs(s string) []string {
	var (
		words []string
		cur   strings.Builder
		quote rune
		in    bool
	)
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '"' || r == '\'':
			quote, in = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if in {
				words, in = append(words, cur.String()), false
				cur.Reset()
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words
}

// CommandLine splits a prompt that calls a command, "/name args", into
// the name and the arguments; ok is false for a prompt that is not one
// (a path such as "/usr/bin is missing" names no command).
func CommandLine(prompt string) (name, args string, ok bool) {
	rest, found := strings.CutPrefix(strings.TrimLeft(prompt, " \t\n"), "/")
	if !found {
		return "", "", false
	}
	end := strings.IndexAny(rest, " \t\n")
	if end < 0 {
		end = len(rest)
	}
	name, args = rest[:end], strings.TrimSpace(rest[end:])
	return name, args, commandName().MatchString(name)
}

// FindCommand returns the command of cmds named name.
func FindCommand(cmds []Command, name string) (Command, bool) {
	for _, c := range cmds {
		if c.Name == name {
			return c, true
		}
	}
	return Command{}, false
}

// Prompt is what the command sends with args: its template filled, and
// for a sub-task command a request to the main agent to delegate it to a
// sub-agent of the command's type (general-purpose when it names none)
// among types. A type that is not there runs the prompt in the
// conversation instead, and note says so. Every front end sends a
// command's prompt through here, so /name args means the same in the TUI
// and headless.
func (c Command) Prompt(args string, types []Type) (prompt, note string) {
	prompt = c.Expand(args)
	if !c.Subtask {
		return prompt, ""
	}
	typ := c.Agent
	if typ == "" {
		typ = "general-purpose"
	}
	known := false
	for _, t := range types {
		if Normalize(t.Name) == Normalize(typ) && !t.Hidden && !t.Disabled {
			typ, known = t.Name, true
			break
		}
	}
	if !known {
		return prompt, fmt.Sprintf("/%s names agent %q, which is not a sub-agent type here; it runs in this conversation", c.Name, typ)
	}
	model := ""
	if c.Model != "" {
		model = fmt.Sprintf(" and model %q", c.Model)
	}
	return fmt.Sprintf("Run this as a sub-task: call the task tool with subagent_type %q%s, a short description, "+
		"and exactly the text below as its prompt; then report what the sub-agent found.\n\n%s", typ, model, prompt), ""
}
