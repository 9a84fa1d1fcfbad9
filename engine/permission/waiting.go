package permission

import (
	"sync"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/rules"
)

// waiting holds the questions published and not yet answered, so that a
// choice remembered "always" answers the waiting ones it covers: the
// engine decides once what a new rule, a remembered agent type or a
// trusted folder settles, and every front end (the TUI's cards, ACP,
// stream-json) just drops the cards its ApprovalResolved events name.
type waiting struct {
	mu   sync.Mutex
	asks map[*event.ApprovalRequest]*question
}

// question is what a waiting request is about, as far as settling it goes.
type question struct {
	// agent asks a tool question about call; forced says the person must
	// answer it whatever the rules (an ask rule, a hook that asks, a call
	// outside the active skill's tools).
	agent  event.AgentID
	call   rules.Call
	forced bool
	// typeName is a delegation's agent type.
	typeName string
	// settled says a remembered choice answered it, not the person.
	settled bool
}

// add registers a published request.
func (w *waiting) add(req *event.ApprovalRequest, q question) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.asks == nil {
		w.asks = map[*event.ApprovalRequest]*question{}
	}
	w.asks[req] = &q
}

// done forgets an answered request; it reports whether a remembered
// choice answered it.
func (w *waiting) done(req *event.ApprovalRequest) (settled bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if q, ok := w.asks[req]; ok {
		settled = q.settled
		delete(w.asks, req)
	}
	return settled
}

// settle allows every waiting request of kind that covered says a
// remembered choice answers. The first answer wins, so a person who
// answered one meanwhile keeps their answer.
func (w *waiting) settle(kind event.ApprovalKind, covered func(q *question) bool) {
	w.mu.Lock()
	var reqs []*event.ApprovalRequest
	for req, q := range w.asks {
		if req.Kind == kind && !q.settled && covered(q) {
			q.settled = true
			reqs = append(reqs, req)
		}
	}
	w.mu.Unlock()
	for _, req := range reqs {
		req.Answer(event.Answer{Decision: event.Allow})
	}
}
