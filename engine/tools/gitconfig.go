package tools

import (
	"path/filepath"
	"strings"

	"github.com/seed-e4e525a6/baton/agenttypes/repofile"
)

// What git reads decides what git runs: a config file can name a hook
// folder, an fsmonitor, filter and diff drivers, an editor or a pager,
// and include other config files that do the same. baton reads the
// config files git reads (as they stand before a command, when they are
// the person's) to find every file and folder they point at, so that a
// command can change none of them.

// maxGitConfigBytes bounds one config file read; maxIncludeDepth is
// git's own bound on nested includes.
const (
	maxGitConfigBytes = 1 << 20
	maxIncludeDepth   = 10
)

// gitConfigEntry is one "key = value" of a config file, its section and
// key lowercased, its subsection as written.
type gitConfigEntry struct {
	section, sub, key, value string
}

// name is the entry's dotted name with a "*" for any subsection, the
// form gitProgramKeys lists.
func (e gitConfigEntry) name() string {
	if e.sub != "" {
		return e.section + ".*." + e.key
	}
	return e.section + "." + e.key
}

// parseGitConfig reads the entries of a config file's text: sections
// ([core], [filter "x"], the old [filter.x]), comments (# ;), quoted
// values, escapes and continued lines, after a byte order mark.
func parseGitConfig(data string) []gitConfigEntry {
	var out []gitConfigEntry
	var section, sub string
	data = strings.TrimPrefix(data, "\ufeff") // git skips a UTF-8 byte order mark
	for i := 0; i < len(data); {
		for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n') {
			i++
		}
		if i >= len(data) {
			break
		}
		switch c := data[i]; {
		case c == '#' || c == ';':
			i = lineEnd(data, i)
		case c == '[':
			end := strings.IndexByte(data[i:], ']')
			if end < 0 {
				return out
			}
			section, sub = parseSectionHeader(data[i+1 : i+end])
			i += end + 1
		default:
			start := i
			for i < len(data) && (isAlnum(data[i]) || data[i] == '-') {
				i++
			}
			key := strings.ToLower(data[start:i])
			if key == "" {
				i = lineEnd(data, i)
				continue
			}
			for i < len(data) && (data[i] == ' ' || data[i] == '\t') {
				i++
			}
			value := ""
			if i < len(data) && data[i] == '=' {
				value, i = parseGitValue(data, i+1)
			} else {
				i = lineEnd(data, i)
			}
			out = append(out, gitConfigEntry{section: section, sub: sub, key: key, value: value})
		}
	}
	return out
}

func lineEnd(data string, i int) int {
	if j := strings.IndexByte(data[i:], '\n'); j >= 0 {
		return i + j + 1
	}
	return len(data)
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// parseSectionHeader reads what is between [ and ].
func parseSectionHeader(h string) (section, sub string) {
	h = strings.TrimSpace(h)
	if name, rest, ok := strings.Cut(h, " "); ok {
		rest = strings.TrimSpace(rest)
		rest = strings.TrimSuffix(strings.TrimPrefix(rest, `"`), `"`)
		var b strings.Builder
		for i := 0; i < len(rest); i++ {
			if rest[i] == '\\' && i+1 < len(rest) {
				i++
			}
			b.WriteByte(rest[i])
		}
		return strings.ToLower(name), b.String()
	}
	if name, rest, ok := strings.Cut(h, "."); ok {
		return strings.ToLower(name), strings.ToLower(rest)
	}
	return strings.ToLower(h), ""
}

// parseGitValue reads a value from data[i:] to its line's end and
// returns it with the index after it. Spaces around it are dropped, but
// not quoted ones.
func parseGitValue(data string, i int) (string, int) {
	var b []byte
	keep, quoted := 0, false
	for ; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '\n':
			return string(b[:keep]), i + 1
		case c == '\\' && i+1 < len(data):
			i++
			if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
				i++ // git reads CRLF as a newline, so this continues the line too
			}
			switch data[i] {
			case '\n':
				continue
			case 'n':
				b = append(b, '\n')
			case 't':
				b = append(b, '\t')
			case 'b':
				b = append(b, '\b')
			default:
				b = append(b, data[i])
			}
			keep = len(b)
		case c == '"':
			quoted = !quoted
		case !quoted && (c == '#' || c == ';'):
			return string(b[:keep]), lineEnd(data, i)
		case !quoted && (c == ' ' || c == '\t' || c == '\r'):
			if len(b) > 0 {
				b = append(b, c)
			}
		default:
			b = append(b, c)
			keep = len(b)
		}
	}
	return string(b[:keep]), i
}

// gitProgramKeys name a program git runs, by gitConfigEntry.name: the
// value's first word, when it is a path, is a file git executes.
var gitProgramKeys = map[string]bool{
	"core.fsmonitor": true, "core.editor": true, "core.pager": true, "core.sshcommand": true, "core.askpass": true,
	"core.gitproxy": true, "sequence.editor": true, "diff.external": true, "diff.*.command": true, "diff.*.textconv": true,
	"filter.*.clean": true, "filter.*.smudge": true, "filter.*.process": true, "merge.*.driver": true,
	"credential.helper": true, "credential.*.helper": true, "gpg.program": true, "gpg.*.program": true,
	"alias.*": true, "pager.*": true, "hook.*.command": true, "uploadpack.packobjectshook": true,
	"interactive.difffilter": true, "web.browser": true, "browser.*.cmd": true, "mergetool.*.cmd": true,
	"difftool.*.cmd": true, "man.*.cmd": true, "gpg.*.defaultkeycommand": true, "core.alternaterefscommand": true,
	"remote.*.uploadpack": true, "remote.*.receivepack": true, "trailer.*.command": true, "trailer.*.cmd": true,
	"sendemail.tocmd": true, "sendemail.cccmd": true, "sendemail.headercmd": true, "sendemail.*.tocmd": true,
	"sendemail.*.cccmd": true, "sendemail.*.headercmd": true, "imap.tunnel": true, "mergetool.*.path": true,
	"difftool.*.path": true, "browser.*.path": true, "man.*.path": true, "submodule.*.update": true,
}

// gitConfigPaths is what the config files git reads point at.
type gitConfigPaths struct {
	files    []string // the config files read, includes included
	hooks    []string // core.hooksPath folders
	programs []string // files named as programs
	reads    []string // other files git reads: excludes, attributes
}

// gitConfigReader follows the config files of one repository.
type gitConfigReader struct {
	top  string // the working tree's top, where relative programs and hooks resolve
	home string
	out  gitConfigPaths
	seen map[string]bool
}

// read takes one config file and what it includes.
func (r *gitConfigReader) read(file string, depth int) {
	file = filepath.Clean(file)
	if depth > maxIncludeDepth || r.seen[file] {
		return
	}
	r.seen[file] = true
	r.out.files = append(r.out.files, file)
	f, err := repofile.Read("", file, maxGitConfigBytes)
	if err != nil {
		return
	}
	for _, e := range parseGitConfig(string(f.Data)) {
		switch n := e.name(); {
		case (n == "include.path" || n == "includeif.*.path") && e.value != "":
			r.read(r.resolve(e.value, filepath.Dir(file)), depth+1)
		case n == "core.hookspath" && e.value != "":
			r.out.hooks = append(r.out.hooks, r.resolve(e.value, r.top))
		case n == "core.excludesfile" || n == "core.attributesfile":
			if e.value != "" {
				r.out.reads = append(r.out.reads, r.resolve(e.value, r.top))
			}
		case gitProgramKeys[n] || e.section == "alias" || e.section == "pager":
			if prog := programPath(e.value); prog != "" {
				r.out.programs = append(r.out.programs, r.resolve(prog, r.top))
			}
		}
	}
}

// resolve makes a config path absolute: "~/" is the home folder, a
// relative path is relative to base.
func (r *gitConfigReader) resolve(p, base string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok && r.home != "" {
		return filepath.Join(r.home, rest)
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

// programPath is the first word of a command value when it names a file
// by path ("./x", "scripts/x", "/opt/x", "~/x"), "" for a program looked
// up on $PATH, a boolean, or a git alias that runs git.
func programPath(value string) string {
	value = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(value), "!"))
	word, _, _ := strings.Cut(value, " ")
	if q := value[:min(1, len(value))]; q == `"` || q == "'" {
		word, _, _ = strings.Cut(value[1:], q)
	}
	if !strings.Contains(word, "/") {
		return ""
	}
	return word
}

// gitConfigFiles are the config files git reads outside any repository:
// the system's and the person's.
func gitConfigFiles(getenv func(string) string) []string {
	var out []string
	if getenv("GIT_CONFIG_NOSYSTEM") == "" {
		if f := getenv("GIT_CONFIG_SYSTEM"); f != "" {
			out = append(out, f)
		} else {
			out = append(out, "/etc/gitconfig")
		}
	}
	if f := getenv("GIT_CONFIG_GLOBAL"); f != "" {
		return append(out, f)
	}
	xdg := getenv("XDG_CONFIG_HOME")
	if home := getenv("HOME"); home != "" {
		if xdg == "" {
			xdg = filepath.Join(home, ".config")
		}
		out = append(out, filepath.Join(home, ".gitconfig"))
	}
	if xdg != "" {
		out = append(out, filepath.Join(xdg, "git", "config"))
	}
	return out
}

// readGitConfigs follows every config file git reads for the repository
// at top (gitDir its own folder, common the shared one).
func readGitConfigs(top, gitDir, common string, getenv func(string) string) gitConfigPaths {
	r := &gitConfigReader{top: top, home: getenv("HOME"), seen: map[string]bool{}}
	files := gitConfigFiles(getenv)
	if common != "" {
		files = append(files, filepath.Join(common, "config"))
	}
	if gitDir != "" {
		files = append(files, filepath.Join(gitDir, "config.worktree"))
	}
	for _, f := range files {
		if f != "/dev/null" {
			r.read(f, 0)
		}
	}
	return r.out
}
