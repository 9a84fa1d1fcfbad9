package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/glamour"
	"github.com/charmbracelet/glamour/styles"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// keptRenderers bounds the renderers kept: a resize drag passes through
// many widths, and only the last few are worth keeping.
const keptRenderers = 4

// markdown renders finished assistant messages with glamour. Building a
// renderer is costly, so there is one per width; each message is rendered
// once per width and cached by its block.
type markdown struct {
	style     string
	renderers map[int]*glamour.TermRenderer
}

// newMarkdown makes a renderer set for a glamour standard style. Under
// NO_COLOR the terminal's profile strips the style's colours, and an
// unknown style falls back to the colourless one.
func newMarkdown(style string) *markdown {
	if _, ok := styles.DefaultStyles[style]; !ok {
		style = styles.NoTTYStyle
	}
	return &markdown{style: style, renderers: map[int]*glamour.TermRenderer{}}
}

// render returns text as styled lines at most width cells wide, with the
// blank lines glamour puts around a document removed.
func (md *markdown) render(text string, width int) ([]string, error) {
	r, err := md.renderer(width)
	if err != nil {
		return nil, err
	}
	out, err := r.Render(text)
	if err != nil {
		return nil, fmt.Errorf("render markdown: %w", err)
	}
	lines := strings.Split(out, "\n")
	for len(lines) > 0 && strings.TrimSpace(ansi.Strip(lines[0])) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(ansi.Strip(lines[len(lines)-1])) == "" {
		lines = lines[:len(lines)-1]
	}
	return hardwrap(lines, width), nil
}

// hardwrap breaks the lines glamour left wider than width, a long URL,
// path or run of CJK text it cannot break at a space, so the cells past
// the width go to the next line instead of being cut. Styles carry over.
func hardwrap(lines []string, width int) []string {
	width = max(width, 1)
	out := make([]string, 0, len(lines))
	for _, line := range lines {
		if len(line) <= width || ansi.StringWidth(line) <= width {
			out = append(out, line)
			continue
		}
		trimmed := strings.TrimRight(line, " ")
		for _, part := range strings.Split(ansi.Hardwrap(trimmed, width, true), "\n") {
			out = append(out, fit(part, width))
		}
	}
	return out
}

// renderer returns the width's renderer, building it on first use. The
// document margin is dropped because the conversation draws its own
// gutter.
func (md *markdown) renderer(width int) (*glamour.TermRenderer, error) {
	if r, ok := md.renderers[width]; ok {
		return r, nil
	}
	cfg := *styles.DefaultStyles[md.style]
	var zero uint
	cfg.Document.Margin = &zero
	cfg.Document.BlockPrefix, cfg.Document.BlockSuffix = "", ""
	r, err := glamour.NewTermRenderer(
		glamour.WithStyles(cfg),
		glamour.WithWordWrap(max(width, 1)),
		glamour.WithColorProfile(lipgloss.ColorProfile()),
	)
	if err != nil {
		return nil, fmt.Errorf("new markdown renderer: %w", err)
	}
	if len(md.renderers) >= keptRenderers {
		clear(md.renderers)
	}
	md.renderers[width] = r
	return r, nil
}
