package ui

import (
	"cmp"
	"slices"

	"github.com/seed-e4e525a6/baton/ui/status"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/ui/overlay/modelpick"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// openModelPicker is /model without a name: the picker over the
// endpoint's models, or a word on why there is none.
func (m *Model) openModelPicker() {
	if m.opts.Models == nil {
		m.status.Set(status.Info, "model: "+m.model+" (/model NAME switches)")
		return
	}
	models, ready := m.opts.Models()
	switch {
	case !ready:
		m.status.Set(status.Info, "model: "+m.model+" · the endpoint's model list is still loading; /model NAME switches")
		return
	case len(models) == 0:
		m.status.Set(status.Info, "model: "+m.model+" · the endpoint offers no model list; /model NAME switches")
		return
	}
	models = slices.Clone(models)
	slices.SortFunc(models, func(a, b modelpick.Model) int { return cmp.Compare(a.ID, b.ID) })
	m.picker = modelpick.New(models, m.model, m.styles)
	m.overlay = overlayModel
	m.input.Blur()
}

// pickerKey gives a key to the open picker; a choice switches the model.
func (m *Model) pickerKey(msg tea.KeyMsg) tea.Cmd {
	chosen, done := m.picker.Update(msg)
	if !done {
		return nil
	}
	m.picker, m.overlay = nil, overlayNone
	m.input.Focus()
	if chosen == "" {
		return nil
	}
	return m.setModel(chosen)
}

// pickerView draws the picker under the conversation, as a card is.
func (m *Model) pickerView(height int) []string {
	return m.picker.View(m.width, cardRoom(height))
}

// pickerHelpKeys are the picker's keys for the footer.
func (m *Model) pickerHelpKeys() []key.Binding {
	k := m.picker.Keys
	return []key.Binding{k.Choose, k.Up, k.Down, k.Cancel, m.keys.Quit}
}

// warnUnserved says at once when the endpoint's list lacks a model just
// switched to, rather than on the next prompt's 404.
func (m *Model) warnUnserved(name string) {
	if m.opts.CheckModel == nil {
		return
	}
	if why := m.opts.CheckModel(name); why != "" {
		m.status.Set(status.Warning, "model: "+termtext.Clean(name)+" · "+termtext.Clean(why))
	}
}
