package rules

import (
	"encoding/json"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/seed-e4e525a6/baton/engine/realpath"
	"github.com/seed-e4e525a6/baton/engine/shell"
)

// Call is one tool call as rules see it: the command of run_command, the
// path of a file tool.
type Call struct {
	Tool string
	// Command is run_command's command line, as the model wrote it.
	Command string
	// Path is the call's path relative to the workspace, slash-separated
	// and cleaned; "" when the tool has none or it leaves the workspace.
	Path string
	// Abs is the cleaned absolute path, for rules written absolute.
	Abs string
	// Host is web_fetch's host, lower case; "" when the URL has none.
	Host string

	// real and realAbs are Path and Abs with symlinks resolved, the file
	// a tool would really touch; realAbs is "" when it cannot be
	// resolved.
	real, realAbs string

	// parts are the command's simple commands as allow rules read them;
	// unparsed is true when it is not valid shell.
	parts    []part
	unparsed bool
	// commands are every command the line runs, nested ones included, as
	// deny and ask rules read them; unreadable is true when the shell
	// reader cannot list them.
	commands   []shell.Command
	unreadable bool
}

// CallOf reads the arguments rules care about from a tool call's JSON.
// Arguments that do not parse leave the call without a command or path,
// which no scoped rule matches.
func CallOf(tool string, args json.RawMessage, workspace string) Call {
	var a struct {
		Command string `json:"command"`
		Path    string `json:"path"`
		URL     string `json:"url"`
	}
	_ = json.Unmarshal(args, &a) // a bad call is refused by the tool itself
	switch {
	case tool == CommandTool:
		return CommandCall(a.Command)
	case tool == FetchTool:
		return FetchCall(a.URL)
	case slices.Contains(fileTools, tool):
		return PathCall(tool, a.Path, workspace)
	}
	return Call{Tool: tool}
}

// FetchCall is a web_fetch call of rawURL, placed by its host as
// web_fetch will reach it.
func FetchCall(rawURL string) Call {
	c := Call{Tool: FetchTool}
	if u, err := url.Parse(strings.TrimSpace(rawURL)); err == nil {
		c.Host = strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	}
	return c
}

// CommandCall is a run_command call of cmd.
func CommandCall(cmd string) Call {
	c := Call{Tool: CommandTool, Command: cmd}
	c.parts, c.unparsed = splitCommand(cmd)
	cmds, err := shell.Parse(cmd)
	c.commands, c.unreadable = cmds, err != nil
	return c
}

// PathCall is a call of a file tool on path, relative to the workspace
// or absolute. Its symlinks are resolved as the tools resolve them, so
// a rule about a file holds whatever link names it.
func PathCall(tool, path, workspace string) Call {
	c := Call{Tool: tool}
	c.Path, c.Abs = relPath(path, workspace)
	if abs, err := realpath.Resolve(filepath.FromSlash(c.Abs)); err == nil {
		root, err := realpath.Resolve(filepath.Clean(workspace))
		if err != nil {
			root = workspace
		}
		c.real, c.realAbs = relPath(abs, root)
	}
	return c
}

// Unclear says why every deny and ask rule about commands covers the
// call: the command cannot be read, or it runs a program only known when
// the shell runs it. "" for calls that rules can read.
func (c Call) Unclear() string {
	if c.Tool != CommandTool {
		return ""
	}
	if c.unreadable {
		return "the command cannot be parsed"
	}
	for _, cmd := range c.commands {
		if p := cmd.Program(); len(p) > 0 && p[0].Opaque {
			return "it runs a program only known when it runs (a substitution, a variable, a glob or a brace expansion)"
		}
	}
	return ""
}

// relPath places p in the workspace lexically.
func relPath(p, workspace string) (rel, abs string) {
	if p == "" {
		p = "."
	}
	abs = p
	if !filepath.IsAbs(p) {
		abs = filepath.Join(workspace, p)
	}
	abs = filepath.Clean(abs)
	r, err := filepath.Rel(filepath.Clean(workspace), abs)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", filepath.ToSlash(abs)
	}
	return filepath.ToSlash(r), filepath.ToSlash(abs)
}

// coversPart says whether an allow rule covers one simple command: a
// plain command whose leading words are exactly the rule's.
func (r Rule) coversPart(p part) bool {
	if !p.plain || len(p.words) < len(r.Words) || (!r.Prefix && len(p.words) != len(r.Words)) {
		return false
	}
	for i, w := range r.Words {
		if p.words[i] != w {
			return false
		}
	}
	if !r.Prefix {
		return !slices.Contains(p.words, opaque)
	}
	return true
}
