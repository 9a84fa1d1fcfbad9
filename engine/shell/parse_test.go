package shell

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestParseListsEveryCommand: what permission rules and the blocklist
// see of a script, nested scripts and cd included.
func TestParseListsEveryCommand(t *testing.T) {
	cmds, err := Parse(`cd /tmp && X=b; if true; then go test ./... | tee "$X".log; fi; bash -c 'rm -f a{1,2}' & echo "$(git status)"`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cmds {
		got = append(got, strings.Join(c.Args, " ")+" @"+strings.Join(c.Dirs, ","))
	}
	// cd /tmp may fail: what follows the && list may run where it started.
	want := []string{"cd /tmp @", "true @,/tmp", "go test ./... @,/tmp", "tee b.log @,/tmp", "bash -c rm -f a{1,2} @,/tmp",
		"rm -f a1 a2 @,/tmp", "git status @,/tmp", "echo $(git status) @,/tmp"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("commands:\n%q\nwant\n%q", got, want)
	}
	if !cmds[3].Piped || !cmds[4].Background || cmds[5].Depth != 1 {
		t.Errorf("flags: %+v", cmds)
	}
}

func TestUnwrap(t *testing.T) {
	for in, want := range map[string]string{
		"sudo -u root env A=1 nice -n 5 timeout -s KILL 5 rm -rf x": "rm -rf x",
		"env -S 'rm -rf x'":        "rm -rf x",
		"xargs -I {} -n 1 rm {}":   "rm {}",
		"command -v rm":            "",
		"stdbuf -oL nohup make -j": "make -j",
	} {
		cmds, err := Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(Unwrap(cmds[0].Args), " "); got != want {
			t.Errorf("Unwrap(%s) = %q, want %q", in, got, want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	if _, err := Parse("echo 'open"); err == nil || !strings.Contains(err.Error(), "parse command") {
		t.Errorf("unterminated quote: %v", err)
	}
	deep := "true"
	for range MaxDepth + 1 {
		deep = "sh -c " + quote(deep)
	}
	if _, err := Parse(deep); !errors.Is(err, ErrTooDeep) {
		t.Errorf("nesting %d deep: %v", MaxDepth+1, err)
	}
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
