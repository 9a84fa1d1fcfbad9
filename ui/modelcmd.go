package ui

import (
	"cmp"
	"slices"

	"github.com/seed-e4e525a6/baton/ui/status"

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
	m.openPicker(modelpick.New(models, m.model, m.styles), (*Model).setModel)
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
