package tools

import (
	"slices"
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
