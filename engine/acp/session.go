package acp

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"strings"
	"sync"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/acp/jsonrpc"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// session is one of the client's sessions: a baton session whose events
// one goroutine, the pump, turns into updates in order, and whose
// questions become permission requests.
type session struct {
	srv  *Server
	caps clientCapabilities
	// ctx ends when the session closes; what it started stops with it.
	ctx  context.Context
	stop context.CancelFunc

	// Set by start, before the session can be found.
	id     string
	s      *engine.Session
	opened Opened
	// tr is the pump's alone.
	tr *translator

	// attach carries terminals to show under their calls, in order with
	// the events (see attachTerminal).
	attach chan attachment
	// replayed is closed once the pump has replayed a loaded session;
	// live when the client has the session (the answer to session/new or
	// session/load is written) or it closes, and the pump may pass live
	// events on; pumped once the pump has stopped.
	replayed, live, pumped chan struct{}
	goLive                 sync.Once
	// asking counts the goroutines waiting for the client's answers, and
	// the one watching for the model list.
	asking    sync.WaitGroup
	closeOnce sync.Once

	mu   sync.Mutex
	turn *turnWait
	// asks cancel the permission requests still open, by approval id.
	asks map[string]context.CancelFunc
}

// turnWait is a prompt waiting for its turn to end.
type turnWait struct {
	started, cancelled bool
	err                string
	done               chan event.Status
}

// attachment is a terminal to show under the call it runs for.
type attachment struct {
	ref      tools.CallRef
	terminal string
	done     chan struct{}
}

func newSession(srv *Server, caps clientCapabilities) *session {
	ss := &session{srv: srv, caps: caps, attach: make(chan attachment), replayed: make(chan struct{}), live: make(chan struct{}),
		pumped: make(chan struct{}), asks: map[string]context.CancelFunc{}}
	ss.ctx, ss.stop = context.WithCancel(srv.ctx)
	return ss
}

// editor is what the client offers of itself to baton's tools: its
// buffers when it can both read and write them (reading one and writing
// the disk would lose the person's unsaved edits), its terminals when it
// has them.
func (ss *session) editor() tools.Editor {
	var e tools.Editor
	if ss.caps.FS.ReadTextFile && ss.caps.FS.WriteTextFile {
		e.Files = clientFiles{ss}
	}
	if ss.caps.Terminal {
		e.Terminal = clientTerminal{ss}
	}
	return e
}

// start takes the opened session and starts the pump, which replays a
// loaded session's history first. It runs before the session is
// registered, so nothing else sees it half made.
func (ss *session) start(o Opened) {
	ss.opened, ss.s = o, o.Session
	ss.id = o.Session.ID()
	if ss.id == "" { // not recorded: an id for this connection only
		ss.id = "unrecorded-" + strings.ToLower(rand.Text()[:12])
	}
	window := func() int64 {
		if o.ContextWindow == nil {
			return 0
		}
		return o.ContextWindow(o.Session.Model())
	}
	ss.tr = newTranslator(o.Session.Workspace(), window)
	// The pump ends when the session's events close (Close).
	go ss.pump()
}

// replay waits until the pump has replayed the session's history.
func (ss *session) replay() {
	select {
	case <-ss.replayed:
	case <-ss.pumped:
	}
}

// started runs once the client has the session: it tells the person
// what they should know before the first prompt, lets the pump pass live
// events on (a question about an MCP server, say, which a client must not
// get before it knows the session) and starts watching for the model
// list.
func (ss *session) started() {
	for _, n := range ss.opened.Notices {
		ss.send(notice(event.Meta{}, "warning", n)...)
	}
	ss.goLive.Do(func() { close(ss.live) })
	ss.asking.Add(1)
	// Ends when the model list came or the session closed.
	go func() {
		defer ss.asking.Done()
		ss.offerModels()
	}()
}

// pump replays the history, then turns every event into updates, in
// order, until the session's events close.
func (ss *session) pump() {
	defer close(ss.pumped)
	ss.replayHistory()
	close(ss.replayed)
	<-ss.live
	events := ss.s.Events()
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				// Closed under a turn: its end may not have been sent.
				ss.endTurn(event.StatusInterrupted, "the session ended")
				return
			}
			ss.handle(ev)
		case a := <-ss.attach:
			// Every event sent before the terminal was made is in the
			// channel: handled first, the call it runs for is shown.
			for n := len(events); n > 0; n-- {
				ev, ok := <-events
				if !ok {
					break
				}
				ss.handle(ev)
			}
			ss.send(ss.tr.attachTerminal(a.ref, a.terminal)...)
			close(a.done)
		}
	}
}

// replayHistory sends a loaded session's conversation: from its last
// clear on, as the model remembers it.
func (ss *session) replayHistory() {
	history := ss.s.History()
	from := 0
	for i, ev := range history {
		if _, ok := ev.(event.ConversationCleared); ok {
			from = i + 1
		}
	}
	for _, ev := range history[from:] {
		ss.send(ss.tr.replay(ev)...)
	}
	ss.send(ss.tr.closeOpen()...)
}

// handle passes one live event on, and acts on what it asks.
func (ss *session) handle(ev event.Event) {
	ss.send(ss.tr.live(ev)...)
	switch e := ev.(type) {
	case event.ApprovalRequested:
		ss.ask(e)
	case event.ApprovalResolved:
		ss.mu.Lock()
		cancel := ss.asks[e.RequestID]
		ss.mu.Unlock()
		if cancel != nil {
			cancel()
		}
	case event.TurnStarted:
		ss.mu.Lock()
		if ss.turn != nil && e.Agent == event.MainAgent && !e.Wake {
			ss.turn.started = true
		}
		ss.mu.Unlock()
	case event.ErrorOccurred:
		ss.mu.Lock()
		if ss.turn != nil && ss.turn.started && e.Agent == event.MainAgent {
			ss.turn.err = strings.TrimSpace(e.Message)
		}
		ss.mu.Unlock()
	case event.TurnEnded:
		if e.Agent == event.MainAgent {
			ss.endTurn(e.Status, "")
		}
	}
}

// endTurn ends the waiting prompt's turn, if it started.
func (ss *session) endTurn(status event.Status, why string) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	w := ss.turn
	if w == nil || (!w.started && why == "") {
		return
	}
	if w.err == "" {
		w.err = why
	}
	ss.turn = nil
	w.done <- status
}

// send sends updates to the client, in order.
func (ss *session) send(updates ...any) {
	for _, u := range updates {
		_ = ss.srv.c.Notify("session/update", sessionNotification{SessionID: ss.id, Update: u})
	}
}

// prompt runs a turn for the client's prompt and answers when it ended.
func (ss *session) prompt(ctx context.Context, params json.RawMessage) (any, func(), error) {
	var req promptRequest
	if err := decode(params, &req); err != nil {
		return nil, nil, err
	}
	message, err := promptText(req.Prompt, ss.s.Workspace())
	if err != nil {
		return nil, nil, jsonrpc.InvalidParams("%v", err)
	}
	w := &turnWait{done: make(chan event.Status, 1)}
	ss.mu.Lock()
	if ss.turn != nil {
		ss.mu.Unlock()
		return nil, nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "a prompt is already running in this session"}
	}
	ss.turn = w
	ss.mu.Unlock()
	if err := ss.s.Submit(message); err != nil {
		ss.mu.Lock()
		ss.turn = nil
		ss.mu.Unlock()
		if errors.Is(err, engine.ErrBusy) {
			return nil, nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "baton is busy with a turn of its own (a background sub-agent's result); try again when it ends"}
		}
		return nil, nil, err
	}
	var status event.Status
	select {
	case status = <-w.done:
	case <-ctx.Done():
		// The client gave up on the request, left, or baton is stopping:
		// the turn stops, and ends cancelled.
		ss.mu.Lock()
		w.cancelled = true
		ss.mu.Unlock()
		ss.s.Interrupt()
		select {
		case status = <-w.done:
		case <-ss.pumped:
		}
	}
	ss.mu.Lock()
	cancelled, why := w.cancelled, w.err
	ss.mu.Unlock()
	return stopReason(status, cancelled, why)
}

// stopReason answers a prompt by how its turn ended; a failed turn is an
// error with its reason.
func stopReason(status event.Status, cancelled bool, why string) (any, func(), error) {
	switch {
	case cancelled || status == event.StatusInterrupted || status == event.StatusCancelled:
		return promptResponse{StopReason: stopCancelled}, nil, nil
	case status == event.StatusCompleted:
		return promptResponse{StopReason: stopEndTurn}, nil, nil
	case status == event.StatusMaxSteps:
		return promptResponse{StopReason: stopMaxTurns}, nil, nil
	}
	if why == "" {
		why = "the turn ended with status " + string(status)
	}
	return nil, nil, &jsonrpc.Error{Code: jsonrpc.CodeInternal, Message: why}
}

// cancel stops the running turn, for session/cancel.
func (ss *session) cancel() {
	ss.mu.Lock()
	if ss.turn != nil {
		ss.turn.cancelled = true
	}
	ss.mu.Unlock()
	ss.s.Interrupt()
}

// close ends the session: its baton session, its pump and every question
// still open. Calling it again does nothing.
func (ss *session) close() {
	ss.closeOnce.Do(func() {
		ss.stop()
		ss.goLive.Do(func() { close(ss.live) })
		ss.opened.Close()
		<-ss.pumped
		ss.asking.Wait()
	})
}

// attachTerminal shows the editor's terminal under the call ref, after
// every event sent before it, so the call is known to the client first.
func (ss *session) attachTerminal(ctx context.Context, ref tools.CallRef, terminal string) {
	a := attachment{ref: ref, terminal: terminal, done: make(chan struct{})}
	select {
	case ss.attach <- a:
	case <-ss.pumped:
		return
	case <-ctx.Done():
		return
	}
	select {
	case <-a.done:
	case <-ss.pumped:
	case <-ctx.Done():
	}
}
