package termtext

import "testing"

func TestClean(t *testing.T) {
	cases := map[string]string{
		"plain text\nline two":              "plain text\nline two",
		"\x1b[2J\x1b[Hcleared":              "cleared",
		"a\tb":                              "a    b",
		"bell\x07 and \x1b]0;title\x07 end": "bell and  end",
		"red \x1b[31mword\x1b[0m":           "red word",
	}
	for in, want := range cases {
		if got := Clean(in); got != want {
			t.Errorf("Clean(%q) = %q, want %q", in, got, want)
		}
	}
}
