package rules

import (
	"encoding/json"
	"path/filepath"
	"strings"
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

	parts    []part
	unparsed bool // the command is not valid shell
}

// CallOf reads the arguments rules care about from a tool call's JSON.
// Arguments that do not parse leave the call without a command or path,
// which no scoped rule matches.
func CallOf(tool string, args json.RawMessage, workspace string) Call {
	c := Call{Tool: tool}
	var a struct {
		Command string `json:"command"`
		Path    string `json:"path"`
	}
	_ = json.Unmarshal(args, &a) // a bad call is refused by the tool itself
	switch {
	case tool == CommandTool:
		c.Command = a.Command
		c.parts, c.unparsed = splitCommand(a.Command)
	case fileTools[tool]:
		c.Path, c.Abs = relPath(a.Path, workspace)
	}
	return c
}

// relPath resolves p against the workspace lexically; symlinks are the
// tools' guard, not the rules'.
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

// coversPart matches a command rule against one simple command. Allowing
// (lenient false) needs a plain command whose leading words are exactly
// the rule's; denying and asking (lenient true) also look through a path
// to the program and wrappers like env and sudo, so /bin/rm is rm.
func (r Rule) coversPart(p part, lenient bool) bool {
	words := p.words
	if lenient {
		words = unwrap(words)
	} else if !p.plain {
		return false
	}
	if len(words) < len(r.Words) || (!r.Prefix && len(words) != len(r.Words)) {
		return false
	}
	for i, w := range r.Words {
		got := words[i]
		if lenient && i == 0 {
			got = filepath.Base(got)
		}
		if got != w {
			return false
		}
	}
	if !r.Prefix && !lenient {
		for _, w := range words {
			if w == opaque {
				return false
			}
		}
	}
	return true
}

// wrappers run the command they are given; a deny on rm also stops
// "sudo rm" and "env X=1 rm".
var wrappers = map[string]bool{"command": true, "exec": true, "env": true, "nohup": true, "sudo": true, "nice": true, "time": true, "builtin": true}

// unwrap drops leading wrappers and env-style assignments.
func unwrap(words []string) []string {
	for len(words) > 1 {
		w := filepath.Base(words[0])
		if !wrappers[w] && !strings.Contains(words[0], "=") {
			break
		}
		words = words[1:]
		for len(words) > 1 && strings.HasPrefix(words[0], "-") {
			words = words[1:]
		}
	}
	return words
}
