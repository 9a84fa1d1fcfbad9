package themes

import (
	"sort"
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// registry names the function that builds each theme; Names and ByName
// read it so a theme added here is offered everywhere. A slice, which
// the compiler lays out, where a map would be built at every start.
var registry = []struct {
	name  string
	build func() Palette
}{
	{"dark", Dark},
	{"light", Light},
	{"high-contrast", HighContrast},
	{"solarized", Solarized},
}

// Names lists the themes ByName knows, sorted, for help and completion.
func Names() []string {
	names := make([]string, 0, len(registry))
	for _, t := range registry {
		names = append(names, t.name)
	}
	sort.Strings(names)
	return names
}

// ByName returns the named theme; the name is matched without regard to
// case or surrounding space. The bool is false for an unknown name.
func ByName(name string) (Palette, bool) {
	name = strings.ToLower(strings.TrimSpace(name))
	for _, t := range registry {
		if t.name == name {
			return t.build(), true
		}
	}
	return Palette{}, false
}

// Default is the theme used when none is chosen: it follows the
// terminal's background so text is readable without configuration.
func Default(hasDarkBackground bool) Palette {
	if hasDarkBackground {
		return Dark()
	}
	return Light()
}

// Dark is a cool, low-glare theme for dark terminals.
func Dark() Palette {
	return Palette{
		Name:    "dark",
		Text:    lipgloss.Color("#D8DEE9"),
		Muted:   lipgloss.Color("#7C8594"),
		Accent:  lipgloss.Color("#7AA2F7"),
		Border:  lipgloss.Color("#4C566A"),
		Focus:   lipgloss.Color("#BB9AF7"),
		Success: lipgloss.Color("#9ECE6A"),
		Warning: lipgloss.Color("#E0AF68"),
		Error:   lipgloss.Color("#F7768E"),
		Busy:    lipgloss.Color("#7DCFFF"),
		Agents: []lipgloss.TerminalColor{
			lipgloss.Color("#7AA2F7"), lipgloss.Color("#BB9AF7"), lipgloss.Color("#9ECE6A"),
			lipgloss.Color("#E0AF68"), lipgloss.Color("#7DCFFF"), lipgloss.Color("#FF9E64"),
		},
		Code: lipgloss.Color("#73DACA"),
	}
}

// Light is a crisp theme for light terminals, with colours dark enough
// to read on white.
func Light() Palette {
	return Palette{
		Name:    "light",
		Text:    lipgloss.Color("#24292F"),
		Muted:   lipgloss.Color("#6E7781"),
		Accent:  lipgloss.Color("#0969DA"),
		Border:  lipgloss.Color("#AFB8C1"),
		Focus:   lipgloss.Color("#8250DF"),
		Success: lipgloss.Color("#1A7F37"),
		Warning: lipgloss.Color("#9A6700"),
		Error:   lipgloss.Color("#CF222E"),
		Busy:    lipgloss.Color("#0550AE"),
		Agents: []lipgloss.TerminalColor{
			lipgloss.Color("#0969DA"), lipgloss.Color("#8250DF"), lipgloss.Color("#1A7F37"),
			lipgloss.Color("#9A6700"), lipgloss.Color("#BF3989"), lipgloss.Color("#BC4C00"),
		},
		Code: lipgloss.Color("#953800"),
	}
}

// HighContrast keeps text in the terminal's own foreground colour (the
// strongest contrast whatever the background) and uses the 16 basic
// colours, bright on dark backgrounds and plain on light ones, for
// meaning.
func HighContrast() Palette {
	ansi := func(light, dark string) lipgloss.TerminalColor {
		return lipgloss.AdaptiveColor{Light: light, Dark: dark}
	}
	return Palette{
		Name:    "high-contrast",
		Text:    lipgloss.NoColor{},
		Muted:   lipgloss.NoColor{},
		Accent:  ansi("4", "14"),
		Border:  lipgloss.NoColor{},
		Focus:   ansi("5", "11"),
		Success: ansi("2", "10"),
		Warning: ansi("5", "11"),
		Error:   ansi("1", "9"),
		Busy:    ansi("4", "14"),
		Agents: []lipgloss.TerminalColor{
			ansi("4", "14"), ansi("5", "13"), ansi("2", "10"), ansi("1", "11"), ansi("6", "12"),
		},
		Code: ansi("6", "13"),
	}
}

// Solarized is Ethan Schoonover's Solarized, dark variant.
func Solarized() Palette {
	return Palette{
		Name:    "solarized",
		Text:    lipgloss.Color("#93A1A1"),
		Muted:   lipgloss.Color("#657B83"),
		Accent:  lipgloss.Color("#268BD2"),
		Border:  lipgloss.Color("#586E75"),
		Focus:   lipgloss.Color("#D33682"),
		Success: lipgloss.Color("#859900"),
		Warning: lipgloss.Color("#B58900"),
		Error:   lipgloss.Color("#DC322F"),
		Busy:    lipgloss.Color("#2AA198"),
		Agents: []lipgloss.TerminalColor{
			lipgloss.Color("#268BD2"), lipgloss.Color("#2AA198"), lipgloss.Color("#859900"),
			lipgloss.Color("#B58900"), lipgloss.Color("#CB4B16"), lipgloss.Color("#6C71C4"),
		},
		Code: lipgloss.Color("#CB4B16"),
	}
}
