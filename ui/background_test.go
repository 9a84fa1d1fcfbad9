package ui

import "testing"

func TestColorFGBGSaysWhetherTheBackgroundIsDark(t *testing.T) {
	cases := []struct {
		v        string
		dark, ok bool
	}{
		{"15;0", true, true}, {"0;15", false, true}, {"0;7", false, true}, {"7;8", true, true},
		{"15;default;0", true, true}, {"", false, false}, {"15;x", false, false}, {"15;99", false, false},
	}
	for _, c := range cases {
		dark, ok := darkFromColorFGBG(c.v)
		if dark != c.dark || ok != c.ok {
			t.Errorf("COLORFGBG=%q: dark %v ok %v, want %v %v", c.v, dark, ok, c.dark, c.ok)
		}
	}
}
