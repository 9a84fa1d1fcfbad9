package shell

import (
	"strings"
	"testing"
)

// TestQuotingReadsAsTheShellReadsIt: backslashes, double and single
// quotes, and $'…' escapes give the words bash would pass, so $'\x72m'
// is rm to a rule as it is to the shell.
func TestQuotingReadsAsTheShellReadsIt(t *testing.T) {
	for src, want := range map[string]string{
		`echo a\ b "a\"b\$c\d" 'e\f'`:                   `echo|a b|a"b$c\d|e\f`,
		"echo \"a\\\nb\" c\\\nd":                        "echo|ab|cd",
		`echo $'\a\b\e\E\f\n\r\t\v'`:                    "echo|\a\b\x1b\x1b\f\n\r\t\v",
		`echo $'\x72m' $'\u0072\U0000006d' $'\162\155'`: "echo|rm|rm|rm",
		`echo $'\cA\q\xZZ\u\\' $'\777' $'a\'b'`:         "echo|\x01q\\xZZ\\u\\|\xff|a'b",
		`echo $"hi"`:                                    "echo|hi",
	} {
		cmds, err := Parse(src)
		if err != nil {
			t.Fatalf("Parse(%s): %v", src, err)
		}
		if got := strings.Join(cmds[0].Args, "|"); got != want {
			t.Errorf("Parse(%s) = %q, want %q", src, got, want)
		}
	}
}

// TestUnescape reads a word as the shell removes its backslashes, quoted
// or not.
func TestUnescape(t *testing.T) {
	for _, c := range []struct {
		in     string
		quoted bool
		want   string
	}{
		{`r\m`, false, "rm"}, {`r\m`, true, `r\m`}, {`\$x\"`, true, `$x"`}, {"a\\\nb", true, "ab"},
		{`end\`, false, `end\`}, {`plain`, false, "plain"}, {`\\\*`, false, `\*`},
	} {
		if got := Unescape(c.in, c.quoted); got != c.want {
			t.Errorf("Unescape(%q, %v) = %q, want %q", c.in, c.quoted, got, c.want)
		}
	}
}
