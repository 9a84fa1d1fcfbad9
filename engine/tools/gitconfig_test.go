package tools

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestParseGitConfig: the spellings git accepts for the keys that name
// what git runs all reach the guard: any case, quoted, with comments and
// escapes, continued over lines, in old-style subsections.
func TestParseGitConfig(t *testing.T) {
	text := "# comment\n[Core]\n\tFSMonitor = \"/tmp/e vil\" ; trailing\n\thooksPath=.githooks\n" +
		"[include]\n  path = ../x.cfg # why\n[includeIf \"gitdir:~/w/\"]\n\tpath = ~/w.cfg\n" +
		"[filter \"Lfs\"]\n\tclean = ./scripts/cl\\\nean.sh %f\n[alias.x]\n\tbare\n[diff.tc]\n\ttextconv = /opt/t\n"
	got := parseGitConfig(text)
	want := []gitConfigEntry{
		{"core", "", "fsmonitor", "/tmp/e vil"}, {"core", "", "hookspath", ".githooks"},
		{"include", "", "path", "../x.cfg"}, {"includeif", "gitdir:~/w/", "path", "~/w.cfg"},
		{"filter", "Lfs", "clean", "./scripts/clean.sh %f"}, {"alias", "x", "bare", ""}, {"diff", "tc", "textconv", "/opt/t"},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("parsed\n%q\nwant\n%q", got, want)
	}
	for value, path := range map[string]string{"./scripts/clean.sh %f": "./scripts/clean.sh", "!sh -c x": "", "git-lfs filter": "", `"/opt/my tool" -x`: "/opt/my tool", "~/bin/x": "~/bin/x", "true": ""} {
		if got := programPath(value); got != path {
			t.Errorf("programPath(%q) = %q, want %q", value, got, path)
		}
	}
}

// TestGitConfigReadsAsGitReadsIt: each value of config files written
// the ways a person's editor or a hostile repository may write them
// (CRLF line ends, continued lines, escapes, quotes, comments, a key on
// the header's line, a byte order mark first) is what git itself reads, so the program the guard
// protects is the program git runs.
func TestGitConfigReadsAsGitReadsIt(t *testing.T) {
	for _, text := range []string{
		"[core]\r\n\tfsmonitor = /tmp/ev\\\r\nil\r\n\tpager = \"less\\t-R\" \r\n",
		"[core] editor = ./bin/ed\\\nit ; note\n[sequence]editor=\"./a b\"#c\n",
		"[diff \"x\"]\n\ttextconv = \"./t\\\\x\" \\n\\b\n\texternal\n[gpg]\n\tprogram =   \t ./g  \n",
		"[alias]\n\tst = \"!./s ; rm\" # x\n\tco = !\"./c\" \"#\"\n",
		"\ufeff[core]\n\tfsmonitor = ./evil\n",
	} {
		path := filepath.Join(t.TempDir(), "config")
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		entries := parseGitConfig(text)
		if len(entries) == 0 || entries[0].section == "" {
			t.Errorf("%q: the first entry has no section: %+v", text, entries)
		}
		for _, e := range entries {
			key := e.section + "." + e.key
			if e.sub != "" {
				key = e.section + "." + e.sub + "." + e.key
			}
			out, err := exec.Command("git", "config", "--file", path, "--get", key).Output()
			want := strings.TrimSuffix(string(out), "\n")
			if err != nil && e.value == "" {
				continue // a bare key: git says true, which names no program
			}
			if err != nil || e.value != want {
				t.Errorf("%q: %s = %q, git reads %q (%v)", text, key, e.value, want, err)
			}
		}
	}
}
