package themes

import (
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

func TestNamesResolve(t *testing.T) {
	names := Names()
	if len(names) < 4 {
		t.Fatalf("Names() = %v, want at least four themes", names)
	}
	for _, name := range names {
		p, ok := ByName(" " + strings.ToUpper(name) + " ")
		if !ok {
			t.Errorf("ByName(%q) not found", name)
			continue
		}
		if p.Name != name {
			t.Errorf("ByName(%q).Name = %q", name, p.Name)
		}
	}
	for _, want := range []string{"dark", "light", "high-contrast"} {
		if _, ok := ByName(want); !ok {
			t.Errorf("theme %q missing", want)
		}
	}
	if _, ok := ByName("no-such-theme"); ok {
		t.Error("ByName accepted an unknown name")
	}
}

func TestPalettesComplete(t *testing.T) {
	for _, name := range Names() {
		p, _ := ByName(name)
		v := reflect.ValueOf(p)
		for i := range v.NumField() {
			field := v.Type().Field(i)
			if field.Type.Kind() == reflect.Interface && v.Field(i).IsNil() {
				t.Errorf("%s: %s is unset", name, field.Name)
			}
		}
		if len(p.Agents) < 4 {
			t.Errorf("%s: %d agent colours, want at least 4", name, len(p.Agents))
		}
	}
}

func TestDefaultFollowsBackground(t *testing.T) {
	if got := Default(true).Name; got != "dark" {
		t.Errorf("Default(dark background) = %q", got)
	}
	if got := Default(false).Name; got != "light" {
		t.Errorf("Default(light background) = %q", got)
	}
}

// TestColourProfiles renders a coloured style under each terminal profile:
// colour codes appear where the terminal has colour and vanish under
// NO_COLOR (the Ascii profile), while the text stays intact.
func TestColourProfiles(t *testing.T) {
	defer lipgloss.SetColorProfile(lipgloss.ColorProfile())
	for _, name := range Names() {
		p, _ := ByName(name)
		s := New(p)
		for _, tc := range []struct {
			profile termenv.Profile
			colour  bool
		}{{termenv.TrueColor, true}, {termenv.ANSI256, true}, {termenv.ANSI, true}, {termenv.Ascii, false}} {
			lipgloss.SetColorProfile(tc.profile)
			out := s.Diff.Add.Render("+added")
			if !strings.Contains(out, "+added") {
				t.Errorf("%s/%v: text lost: %q", name, tc.profile, out)
			}
			if got := strings.Contains(out, "\x1b["); got != tc.colour {
				t.Errorf("%s/%v: colour present = %v, want %v (%q)", name, tc.profile, got, tc.colour, out)
			}
		}
	}
}

func TestAgentColoursCycle(t *testing.T) {
	s := New(Dark())
	n := len(s.Palette.Agents)
	for _, i := range []int{0, 1, n, -1, 3 * n} {
		want := s.Palette.Agents[(i%n+n)%n]
		if got := s.Agent(i).GetForeground(); got != want {
			t.Errorf("Agent(%d) colour = %v, want %v", i, got, want)
		}
	}
	if got := New(Palette{}).Agent(2).GetForeground(); got != (lipgloss.NoColor{}) {
		t.Errorf("Agent with no palette colours = %v, want none", got)
	}
}

// Each profile gets the colours it can show, converted once: an index for
// 256 and 16 colours, nothing without colour, the hex for true colour;
// and a style renders the same escape either way.
func TestForProfileConvertsOnce(t *testing.T) {
	p := Dark()
	for _, c := range []struct {
		profile termenv.Profile
		want    lipgloss.TerminalColor
	}{
		{termenv.TrueColor, p.Accent},
		{termenv.ANSI256, lipgloss.Color(strconv.Itoa(int(termenv.ANSI256.Color(string(p.Accent.(lipgloss.Color))).(termenv.ANSI256Color))))},
		{termenv.Ascii, lipgloss.NoColor{}},
	} {
		got := ForProfile(p, c.profile)
		if got.Accent != c.want || len(got.Agents) != len(p.Agents) {
			t.Errorf("profile %v: accent %v, want %v", c.profile, got.Accent, c.want)
		}
		r := lipgloss.NewRenderer(io.Discard)
		r.SetColorProfile(c.profile)
		before := r.NewStyle().Foreground(p.Accent).Render("x")
		after := r.NewStyle().Foreground(got.Accent).Render("x")
		if before != after {
			t.Errorf("profile %v: %q converted renders %q", c.profile, before, after)
		}
	}
}

// Ink paints what Render draws, for every colour profile and the kinds of
// style the UI uses, and hands what it cannot paint to Render.
func TestInkPaintsAsRenderDoes(t *testing.T) {
	defer lipgloss.SetColorProfile(lipgloss.ColorProfile())
	styles := []lipgloss.Style{
		lipgloss.NewStyle(),
		lipgloss.NewStyle().Foreground(lipgloss.Color("#7aa2f7")),
		lipgloss.NewStyle().Foreground(lipgloss.Color("#7aa2f7")).Bold(true).Italic(true),
		lipgloss.NewStyle().Foreground(lipgloss.Color("#7aa2f7")).Underline(true),
		lipgloss.NewStyle().Padding(0, 2).Foreground(lipgloss.Color("#7aa2f7")),
		lipgloss.NewStyle().Border(lipgloss.RoundedBorder()),
		lipgloss.NewStyle().Width(20),
	}
	texts := []string{"", "word", "two words", "  spaced  ", "● mark · ↓ 1.2k tok", "two\nlines", "a\ttab"}
	for _, profile := range []termenv.Profile{termenv.TrueColor, termenv.ANSI256, termenv.ANSI, termenv.Ascii} {
		lipgloss.SetColorProfile(profile)
		for si, st := range styles {
			ink := InkOf(st)
			for _, text := range texts {
				if got, want := ink.Paint(text), st.Render(text); got != want {
					t.Errorf("profile %v, style %d: Paint(%q) = %q, Render = %q", profile, si, text, got, want)
				}
			}
		}
	}
}
