package trustcard

import (
	"context"
	"errors"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/seed-e4e525a6/baton/engine/trust"
	"github.com/seed-e4e525a6/baton/themes"
)

// Ask shows the card full-screen until the person answers or ctx ends,
// and returns the answer; anything but an answer is Quit. progOpts are
// for tests, which supply their own input and output.
func Ask(ctx context.Context, req trust.Request, theme string, progOpts ...tea.ProgramOption) (Choice, error) {
	palette, ok := themes.ByName(theme)
	if !ok {
		palette = themes.Default(lipgloss.HasDarkBackground())
	}
	if len(progOpts) == 0 {
		progOpts = []tea.ProgramOption{tea.WithAltScreen()}
	}
	p := tea.NewProgram(New(req, themes.New(palette)), append(progOpts, tea.WithContext(ctx))...)
	final, err := p.Run()
	switch {
	case errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil:
		return Quit, nil
	case err != nil:
		return Quit, fmt.Errorf("trust card: %w", err)
	}
	m, ok := final.(Model)
	if !ok {
		return Quit, nil
	}
	return m.Choice(), nil
}
