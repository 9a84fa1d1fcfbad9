package markdown

import (
	"fmt"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"

	"github.com/seed-e4e525a6/baton/themes"
)

// rich is an answer that uses every kind of block the renderer draws.
const rich = "# Migrating sessions to JWT\n\n" +
	"The current code keeps *server-side* sessions in **memory**, keyed by a cookie; see `internal/auth/session.go` and the [RFC](https://www.rfc-editor.org/rfc/rfc7519) for the token format. A restart logs everyone out.\n\n" +
	"## Plan\n\n" +
	"1. Add a signer:\n   - load the key from `BATON_JWT_KEY`\n   - rotate keys **without** downtime\n2. Issue tokens on login.\n3. Verify them in the middleware, and drop the session map once every client has moved over to tokens.\n\n" +
	"> Tokens cannot be revoked before they expire, so keep their lifetime short and refresh them.\n\n" +
	"```go\nfunc Sign(claims Claims, key []byte) (string, error) {\n    return jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(key)\n}\n```\n\n" +
	"| File | Change | Lines |\n|:-----|--------|------:|\n| `session.go` | removed | -120 |\n| `jwt.go` | new signer and verifier with key rotation | +85 |\n\n" +
	"---\n\n" +
	"Indented code stays as written:\n\n    go test ./internal/auth/...\n\n" +
	"Links without text show once: <https://example.com/docs>. 日本語のテキストも折り返されます。"

// plainProfile draws without colour for the duration of a test, so the
// goldens are the text a person reads.
func plainProfile(t *testing.T) { withProfile(t, termenv.Ascii) }

// withProfile draws in a colour profile for the duration of a test.
func withProfile(t testing.TB, p termenv.Profile) {
	t.Helper()
	old := lipgloss.ColorProfile()
	lipgloss.SetColorProfile(p)
	t.Cleanup(func() { lipgloss.SetColorProfile(old) })
}

func newRenderer() *Renderer { return New(themes.New(themes.Dark()).Markdown) }

func TestGoldenRender(t *testing.T) {
	plainProfile(t)
	for _, width := range []int{60, 80, 120} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			lines := newRenderer().Render(rich, width)
			golden.RequireEqual(t, []byte(strings.Join(lines, "\n")+"\n"))
		})
	}
}

// Every line fits, whatever the width, even for text that cannot be
// broken at a space and lists nested deeper than the room.
func TestLinesFitWidth(t *testing.T) {
	withProfile(t, termenv.TrueColor)
	deep := "- a\n  - b\n    - c\n      - d\n        - e deep item text\n"
	long := "see https://example.com/" + strings.Repeat("segment/", 30) + " and 漢字漢字漢字漢字漢字漢字漢字漢字\n"
	r := newRenderer()
	for _, doc := range []string{rich, deep, long} {
		for width := 1; width <= 130; width++ {
			for i, line := range r.Render(doc, width) {
				if w := ansi.StringWidth(line); w > width {
					t.Fatalf("width %d: line %d is %d cells: %q", width, i, w, line)
				}
			}
		}
	}
}

// What a model writes cannot drive the terminal: escapes are cleaned
// before parsing, in the rendered blocks and in the raw tail alike.
func TestEscapesCleaned(t *testing.T) {
	plainProfile(t)
	evil := "# Title\x1b[2J\n\nsome \x1b]8;;http://evil\x07text\x1b]8;;\x07 here\n\nand the tail \x1b[31mred"
	r := newRenderer()
	for _, lines := range [][]string{r.Render(evil, 80), r.NewStream().Lines(evil, 80)} {
		out := strings.Join(lines, "\n")
		if strings.ContainsRune(out, '\x1b') || strings.ContainsRune(out, '\x07') {
			t.Fatalf("escape reached the terminal: %q", out)
		}
		if !strings.Contains(out, "Title") || !strings.Contains(out, "some text here") {
			t.Fatalf("text lost: %q", out)
		}
	}
}

// Inline styles switch on and off within each line, so a wrapped bold
// phrase never leaks into the next line or the gutter.
func TestStylesCloseOnEachLine(t *testing.T) {
	withProfile(t, termenv.TrueColor)
	r := newRenderer()
	for _, line := range r.Render("**"+strings.Repeat("bold words ", 20)+"**", 30) {
		if !strings.HasPrefix(line, "\x1b[") || !strings.HasSuffix(line, reset) {
			t.Fatalf("line does not carry its own style: %q", line)
		}
	}
}

func TestTables(t *testing.T) {
	plainProfile(t)
	for _, tc := range []struct{ name, doc, want string }{
		{"aligned", "| a | b |\n|--:|:-:|\n| 1 | two |\n", "a │  b\n──┼────\n1 │ two"},
		{"escaped pipe and code", "| x | y |\n|---|---|\n| a\\|b | `c|d` |\n", "x   │ y\n────┼────\na|b │ c|d"},
		{"short row", "| x | y |\n|---|---|\n| only |\n", "x    │ y\n─────┼──\nonly │"},
		{"not a table", "a | b\nplain line\n", "a | b plain line"},
		{"narrow wraps cells", "| name | description |\n|---|---|\n| x | a long description here |\n", "name │ descripti\n     │ on\n─────┼──────────\nx    │ a long\n     │ descripti\n     │ on here"},
	} {
		width := 80
		if tc.name == "narrow wraps cells" {
			width = 16
		}
		if got := strings.Join(newRenderer().Render(tc.doc, width), "\n"); got != tc.want {
			t.Errorf("%s:\ngot\n%s\nwant\n%s", tc.name, got, tc.want)
		}
	}
}

// Inline HTML that runs over lines draws its line ending as a space: no
// drawn line holds a newline, which would break the screen's lines.
func TestRawHTMLOverLines(t *testing.T) {
	plainProfile(t)
	got := newRenderer().Render("see <span\nclass=\"x\">this</span> and <!-- a\ncomment --> here", 80)
	want := []string{`see <span class="x">this</span> and <!-- a comment --> here`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// FuzzRender draws any text at a few widths: no panic, no line wider
// than the width, and no newline or escape inside a line (of valid UTF-8,
// which is what a reply decoded from JSON is).
func FuzzRender(f *testing.F) {
	for _, seed := range append([]string{rich, tricky, "- a\n  - b\n    > c\n", "| a |\n|---|\n| `x|y` |", "<div>\n*x*\n", "**a _b_ c**"}, referencedControls...) {
		f.Add(seed)
	}
	withProfile(f, termenv.TrueColor)
	r := newRenderer()
	f.Fuzz(func(t *testing.T, doc string) {
		if !utf8.ValidString(doc) {
			return
		}
		for _, width := range []int{1, 17, 80} {
			for _, line := range r.Render(doc, width) {
				if w := ansi.StringWidth(line); w > width {
					t.Fatalf("width %d: line of %d cells: %q", width, w, line)
				}
				if c := foreignControl(line); c != "" {
					t.Fatalf("%q in line %q", c, line)
				}
			}
		}
	})
}

// referencedControls are replies that spell terminal controls as
// character references, which a hostile repository can have a model
// echo: a title, a clipboard write, a cleared screen, colours, C1
// controls, in every block and inline that decodes references.
var referencedControls = []string{
	"&#27;]0;PWNED&#7; &#x1b;]52;c;cHduZWQ=&#x07; &#27;[2J &#x1B;[41mred&#27;[0m",
	"&#x9b;2J &#155;31m &#x85; &#127; &#9;tab &#10;newline &#13;",
	"# &#27;[2J", "- &#27;[2J", "> &#27;[2J", "| a | &#27;[2J |\n|---|---|\n| &#x1b; | b |",
	"[&#27;[2J](u) ![&#27;[2J](x) [a](u \"&#27;[2J\") [&#27;[2J][x] \\&#27;",
}

// The controls a reply spells as character references reach no line
// drawn: each is drawn as U+FFFD.
func TestReferencedControlsAreNotDrawn(t *testing.T) {
	withProfile(t, termenv.TrueColor)
	r := newRenderer()
	for _, doc := range referencedControls {
		lines := r.Render(doc, 80)
		for _, line := range lines {
			if c := foreignControl(line); c != "" {
				t.Errorf("%q: %q in line %q", doc, c, line)
			}
		}
		if !strings.Contains(strings.Join(lines, "\n"), "\ufffd") {
			t.Errorf("%q: no U+FFFD where a control was spelled: %q", doc, lines)
		}
	}
}

// foreignControl is the first control character or sequence in line
// that is not a colour (SGR) the renderer writes itself, or "".
func foreignControl(line string) string {
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRuneInString(line[i:])
		if r == 0x1b && strings.HasPrefix(line[i:], "\x1b[") {
			j := i + 2
			for j < len(line) && (line[j] == ';' || line[j] == ':' || (line[j] >= '0' && line[j] <= '9')) {
				j++
			}
			if j < len(line) && line[j] == 'm' {
				i = j + 1
				continue
			}
			return line[i:min(j+1, len(line))]
		}
		if unicode.IsControl(r) {
			return string(r)
		}
		i += size
	}
	return ""
}
