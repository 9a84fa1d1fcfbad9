package engine

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/llm"
)

// servedModels is the endpoint's model list, asked for once so that a
// child whose file names a model the endpoint does not serve is moved to
// one it does before its first request, never after a 404. A session
// asks when it starts, or, with Config.LazyModelList, when something
// first needs the list.
type servedModels struct {
	start   sync.Once
	fetch   func()        // asks for the list in the background
	done    chan struct{} // closed when ids is final
	ids     []string      // nil when the endpoint offers no list
	aliases map[string]string
}

// ready returns done, asking for the list first if nobody has.
func (m *servedModels) ready() <-chan struct{} {
	m.start.Do(m.fetch)
	return m.done
}

// startModelList readies the list: a fetch in the background when the
// client can list models, started now unless the list is asked for
// lazily. The goroutine ends when the request does: it is bounded by
// llm's model-list timeout and by the session's context.
func (s *Session) startModelList() {
	m := &servedModels{done: make(chan struct{}), aliases: s.cfg.ModelAliases}
	s.served = m
	lister, ok := s.cfg.Client.(llm.ModelLister)
	m.fetch = func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if !ok || s.closing {
			close(m.done)
			return
		}
		s.background.Add(1)
		go func() {
			defer s.background.Done()
			defer close(m.done)
			ids, err := llm.ServedModels(s.ctx, lister)
			if err != nil {
				slog.Debug("no model list; agent models are used as written", "err", err)
				return
			}
			m.ids = ids
		}()
	}
	if !s.cfg.LazyModelList {
		m.ready()
	}
}

// choose resolves a child's model: want as written when it is the
// fallback, else checked against the list, waiting for it if it is still
// on its way.
func (m *servedModels) choose(ctx context.Context, want, fallback string) (model, why string) {
	if want == "" || want == fallback {
		return fallback, ""
	}
	select {
	case <-m.ready():
	case <-ctx.Done():
		return want, ""
	}
	c := matchModel(want, m.ids, m.aliases, fallback)
	return c.model, c.why
}

// TypeModel says which model a child of typ would run on now, and why
// when that is not the model its file names; it never waits, so before
// the endpoint's list has come it says the check is pending.
func (s *Session) TypeModel(typ agenttypes.Type) (model, why string) {
	fallback := s.cfg.SubagentModel
	if fallback == "" {
		fallback = s.Model()
	}
	want := typ.Model
	if want == "" || want == agenttypes.InheritModel {
		return fallback, "inherits the sub-agent model"
	}
	select {
	case <-s.served.ready():
	default:
		return want, "not checked yet: the endpoint's model list is still loading"
	}
	c := matchModel(want, s.served.ids, s.served.aliases, fallback)
	return c.model, c.why
}

// ServedModels is the endpoint's model list, for the /model picker; it
// never waits. ready is false while the list is still on its way; the
// list is nil when the endpoint offers none.
func (s *Session) ServedModels() (ids []string, ready bool) {
	select {
	case <-s.served.ready():
		return slices.Clone(s.served.ids), true
	default:
		return nil, false
	}
}

// ServedModelsLoaded is closed once the endpoint's model list has come,
// or it is known that none will (ServedModels is then ready).
func (s *Session) ServedModelsLoaded() <-chan struct{} { return s.served.done }

// CheckModel says what is wrong with switching the main agent to name, as
// far as the endpoint's list tells: "" when it serves name, or when it
// cannot be checked (no list, or not here yet). It never waits.
func (s *Session) CheckModel(name string) string {
	ids, ready := s.ServedModels()
	if !ready || ids == nil || slices.Contains(ids, name) {
		return ""
	}
	if to, ok := lookupAlias(s.served.aliases, name); ok && slices.Contains(ids, to) {
		return ""
	}
	if m := plainMatch(name, ids); m != "" {
		return fmt.Sprintf("the endpoint does not serve %s; did you mean %s?", name, m)
	}
	listed := fmt.Sprintf("%d models", len(ids))
	if len(ids) == 1 {
		listed = "1 model"
	}
	return fmt.Sprintf("the endpoint does not serve %s (it lists %s; /model shows them)", name, listed)
}
