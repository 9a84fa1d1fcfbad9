package rules

import (
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/seed-e4e525a6/baton/engine/shell"
)

// interpreters run whatever program they are handed, so a prefix of
// their name alone would allow anything: for them, and for the wrappers
// and shells the shell reader knows (shell.RunsCommands), only the exact
// command is offered.
var interpreters = []string{"python", "python3", "node", "deno", "bun", "ruby", "perl", "php", "lua", "npx", "bunx", "uvx", "pipx"}

// subcommand is what a second word looks like when it names an action
// (go test, git status) rather than an argument.
func subcommand() *regexp.Regexp {
	subcommandOnce.Do(func() { subcommandValue = regexp.MustCompile(`^[a-z][a-z0-9_-]*$`) })
	return subcommandValue
}

// subcommandOnce and subcommandValue hold it, built on first use (a zero
// sync.Once costs nothing at start; sync.OnceValue is init code).
var (
	subcommandOnce  sync.Once
	subcommandValue *regexp.Regexp
)

// runners take a script name after "run": npm run test.
var runners = []string{"npm", "pnpm", "yarn"}

// Suggest is what an "always" answer to c adds: a command's own prefix
// for each of its parts (go test ./... offers run_command(go test:*)), or
// the file itself. Nil when nothing narrower than the whole tool fits,
// such as a command that is not plain.
func Suggest(c Call) []Rule {
	if slices.Contains(fileTools, c.Tool) {
		if c.Path == "" || c.Path == "." {
			return nil
		}
		return []Rule{{Tool: c.Tool, Scoped: true, Glob: escapeGlob(c.Path)}}
	}
	if c.Tool != CommandTool {
		return []Rule{{Tool: c.Tool}}
	}
	if c.unparsed || c.unreadable || len(c.parts) == 0 {
		return nil // no rule could cover it: nothing to offer "always" for
	}
	nested := slices.ContainsFunc(c.commands, func(cmd shell.Command) bool { return cmd.Depth > 0 })
	var out []Rule
	for _, p := range c.parts {
		r, ok := prefixOf(p)
		if nested {
			// A prefix would not cover the scripts the command hands a
			// shell: offer the command exactly as it is.
			r, ok = exactly(p)
		}
		if !ok {
			return nil
		}
		if !slices.ContainsFunc(out, func(o Rule) bool { return o.String() == r.String() }) {
			out = append(out, r)
		}
	}
	return out
}

// SuggestFolder is the wider "always" of a file card: every file under
// the call's folder. Nil for other tools and for files at the workspace
// root, where the folder is the whole workspace.
func SuggestFolder(c Call) []Rule {
	if !slices.Contains(fileTools, c.Tool) || c.Path == "" {
		return nil
	}
	dir := path.Dir(c.Path)
	if dir == "." || dir == "/" {
		return nil
	}
	return []Rule{{Tool: c.Tool, Scoped: true, Glob: escapeGlob(dir) + "/**"}}
}

// prefixOf picks a plain command's prefix: the program and its
// subcommand, or the exact command for interpreters and programs named
// by path.
func prefixOf(p part) (Rule, bool) {
	if !p.plain || len(p.words) == 0 || p.words[0] == opaque {
		return Rule{}, false
	}
	r := Rule{Tool: CommandTool, Scoped: true, Words: p.words}
	first := p.words[0]
	if slices.Contains(interpreters, first) || shell.RunsCommands(first) || strings.Contains(first, "/") {
		if slices.Contains(p.words, opaque) {
			return Rule{}, false
		}
	} else {
		n := 1
		if len(p.words) > 1 && subcommand().MatchString(p.words[1]) {
			n = 2
			if slices.Contains(runners, first) && p.words[1] == "run" && len(p.words) > 2 && p.words[2] != opaque {
				n = 3
			}
			if shell.RunsCommandsAfter(first, p.words[1]) {
				// uv run pytest: the program it runs is part of the prefix.
				if len(p.words) < 3 || p.words[2] == opaque || strings.HasPrefix(p.words[2], "-") {
					return Rule{}, false
				}
				n = 3
			}
		}
		r.Prefix, r.Words = true, slices.Clone(p.words[:n])
	}
	if !writable(r.Words) {
		return Rule{}, false
	}
	return r, true
}

// exactly is the rule for one plain command exactly as it is.
func exactly(p part) (Rule, bool) {
	if !p.plain || len(p.words) == 0 || slices.Contains(p.words, opaque) || !writable(p.words) {
		return Rule{}, false
	}
	return Rule{Tool: CommandTool, Scoped: true, Words: p.words}, true
}

// escapeGlob makes a path match only itself as a glob.
func escapeGlob(p string) string {
	var b strings.Builder
	for _, r := range p {
		if strings.ContainsRune(`*?[]{}\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
