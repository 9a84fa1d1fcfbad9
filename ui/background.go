package ui

import (
	"os"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// darkBackground reports whether the terminal draws on a dark background:
// from COLORFGBG when the terminal sets it, else by asking the terminal.
// The question (OSC 11, then a cursor report nearly every terminal
// answers) reads and drops what the person types until the answer comes,
// so it is skipped whenever the environment already tells.
func darkBackground() bool {
	if dark, ok := darkFromColorFGBG(os.Getenv("COLORFGBG")); ok {
		return dark
	}
	return lipgloss.HasDarkBackground()
}

// darkFromColorFGBG reads rxvt's "fg;bg" (or "fg;x;bg"): the ANSI colours
// 0–6 and 8 are dark backgrounds, 7 and 9–15 light ones.
func darkFromColorFGBG(v string) (dark, ok bool) {
	i := strings.LastIndexByte(v, ';')
	if i < 0 {
		return false, false
	}
	bg, err := strconv.Atoi(v[i+1:])
	if err != nil || bg < 0 || bg > 15 {
		return false, false
	}
	return bg != 7 && bg < 9, true
}
