package process

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/residency"
	"github.com/seed-e4e525a6/baton/engine/sandbox"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// Subcommand is the hidden first argument that makes baton a child
// process; the child's id follows it, for people reading a process list.
const Subcommand = "__child"

// Main serves a child and exits when the process was started as one;
// otherwise it returns. Call it first thing in main, right after
// sandbox.Main (tests: in TestMain).
func Main() {
	if len(os.Args) >= 2 && os.Args[1] == Subcommand {
		spare := len(os.Args) >= 3 && strings.HasPrefix(os.Args[2], sparePrefix)
		if spare {
			readySpare(os.Stdin, residency.DropCode)
		}
		os.Exit(serve(os.Stdin, os.Stdout, os.Stderr, spare))
	}
}

// Serve runs one child: it reads the spec from in, runs the child's loop,
// writes its events, messages and questions to out as they happen, takes
// answers and controls from in, and ends with the child's result. Its
// exit status is 0 once the result is written, 2 when the spec could not
// be read.
func Serve(in io.Reader, out io.Writer, errs io.Writer) int {
	return serve(in, out, errs, false)
}

// serve is Serve for a process started as a spare (see spare.go) or for
// its child: a spare whose input ends before a spec came was not needed,
// and exits quietly.
func serve(in io.Reader, out io.Writer, errs io.Writer, spare bool) int {
	lines := newLineReader(in)
	first, err := lines.next()
	if spare && errors.Is(err, io.EOF) {
		return 0
	}
	var d down
	if err == nil {
		err = json.Unmarshal(first, &d)
	}
	if err == nil && d.Spec == nil {
		err = errors.New("the first line holds no spec")
	}
	if err != nil {
		fmt.Fprintf(errs, "baton child: read the spec: %v\n", err)
		return 2
	}
	sp := d.Spec
	if spare {
		if err := adopt(sp); err != nil {
			fmt.Fprintf(errs, "baton child: %v\n", err)
			return 2
		}
	}
	sandbox.TagRuns(sp.Tag)
	ctx, stop := context.WithTimeout(context.Background(), child.HardTimeout(sp.Timeout))
	defer stop()
	ctx, abort := context.WithCancelCause(ctx)
	c := &conn{out: &lineWriter{w: out}, abort: abort, replies: map[int64]chan reply{}, readies: map[int64]chan struct{}{},
		asked: map[int64]question{}, closed: make(chan struct{})}
	ws, err := tools.NewWorkspace(sp.Workspace)
	if err != nil {
		fmt.Fprintf(errs, "baton child: %v\n", err)
		return 2
	}
	var batons net.Listener
	if sp.Home != "" {
		if batons, err = c.detachable(sp, out); err != nil {
			fmt.Fprintf(errs, "baton child: %v\n", err)
			return 2
		}
		defer batons.Close()
	}
	ws.ShareLocks(c)
	set := sp.Toolbox.Build(ws)
	for _, pt := range sp.Parent {
		set = set.With(c.parentTool(pt))
	}
	catalog := map[string]llm.ModelInfo{}
	for _, info := range sp.Models {
		catalog[info.ID] = info
	}
	job := child.Job{
		Spec: child.Spec{Meta: sp.Meta, Type: agenttypes.Type{Effort: sp.Effort, Temperature: sp.Temperature, TopP: sp.TopP},
			Model: sp.Model, MaxSteps: sp.MaxSteps, Timeout: sp.Timeout, Budget: sp.Budget, Depth: sp.Depth, Workspace: sp.Workspace, Skills: sp.Skills},
		History: sp.History,
		Loop: child.Loop{Client: llm.NewClient(sp.Endpoint.config()),
			Catalog: llm.NewCatalog(catalog), FallbackModel: sp.Fallback, Requests: sp.Requests,
			OutputChars: sp.OutputChars, ContextFileBytes: sp.ContextFileBytes,
			SkillLoaded:  func(name string) { c.lost(c.out.write(up{Loaded: name})) },
			Instructions: func() string { return sp.Instructions }},
		Link: child.Link{Emit: c.emit, Record: c.record, Authorize: c},
	}
	if sp.Hooks {
		job.Link.Hooks = hookProxy{c}
	}
	a := job.Agent(set)
	for _, text := range sp.Steers {
		_ = a.Send(text) // it has not run, so its inbox is open
	}
	// Ends when baton closes the child's input: after its result, or
	// when baton goes.
	go c.listen(lines, a)
	if batons != nil {
		// Ends when the listener closes, as Serve returns.
		go c.awaitBatons(batons, sp.Token, a)
	}
	res := a.Run(ctx, sp.Prompt)
	if err := c.out.write(up{Result: &res}); err != nil {
		fmt.Fprintf(errs, "baton child: write the result: %v\n", err)
		return 1
	}
	return 0
}

// conn is a child process's line to baton: it sends what the child's
// loop reports and asks, and hands baton's answers back.
type conn struct {
	out    sender
	abort  context.CancelCauseFunc
	nextID atomic.Int64
	// relay is a detachable child's sender, nil for one that dies with
	// baton.
	relay *relay

	mu sync.Mutex
	// replies wait for the answers to questions; readies for the note
	// that a caller tool's call is ready at baton's end.
	replies map[int64]chan reply
	readies map[int64]chan struct{}
	// asked are the questions waiting for their replies, asked again of
	// a baton that attaches.
	asked map[int64]question
	// closed is closed when baton's input ends: nothing more will come.
	closed chan struct{}
}

// emit sends one of the child's events.
func (c *conn) emit(ev event.Event) {
	data, err := event.MarshalEvent(ev)
	if err == nil {
		err = c.out.write(up{Event: data})
	}
	c.lost(err)
}

// record sends a message added to the child's history.
func (c *conn) record(m openai.ChatCompletionMessage) {
	c.lost(c.out.write(up{Message: &m}))
}

// lost ends the child's loop when baton can no longer be told anything.
func (c *conn) lost(err error) {
	if err != nil {
		c.abort(agent.ErrSessionEnded)
	}
}

// sender sends the child's lines to baton.
type sender interface {
	write(v any) error
}

// detachable readies a child that outlives baton: SIGPIPE caught, so a
// baton that goes breaks only a write (caught, not ignored: commands the
// child starts keep the default); its lines logged in its Home; and the
// socket a later baton attaches on.
func (c *conn) detachable(sp *spec, out io.Writer) (net.Listener, error) {
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	r, err := openRelay(sp.Home, out)
	if err != nil {
		return nil, err
	}
	l, err := net.Listen("unix", "@"+sp.Socket)
	if err != nil {
		return nil, fmt.Errorf("listen for batons: %w", err)
	}
	c.out, c.relay = r, r
	return l, nil
}

// listen hands baton's lines to what waits for them until its input ends.
// The input of a child that dies with baton ending means baton went: the
// child stops. A detachable child carries on, for a later baton.
func (c *conn) listen(lines *lineReader, a *agent.Agent) {
	if c.relay == nil {
		defer close(c.closed)
		defer c.abort(agent.ErrSessionEnded)
	}
	for {
		line, err := lines.next()
		if err != nil {
			return
		}
		c.dispatch(line, a)
	}
}

// dispatch hands one of baton's lines to what waits for it.
func (c *conn) dispatch(line []byte, a *agent.Agent) {
	var d down
	if json.Unmarshal(line, &d) != nil {
		return
	}
	switch {
	case d.Reply != nil:
		c.mu.Lock()
		ch := c.replies[d.Reply.ID]
		delete(c.replies, d.Reply.ID)
		c.mu.Unlock()
		if ch != nil {
			ch <- *d.Reply
		}
	case d.Ready != 0:
		c.mu.Lock()
		ch := c.readies[d.Ready]
		delete(c.readies, d.Ready)
		c.mu.Unlock()
		if ch != nil {
			close(ch)
		}
	case d.Control != nil:
		c.control(a, *d.Control)
	case d.Abort != "":
		c.abort(abortErr(d.Abort))
	}
}

// control applies a control to the child's loop.
func (c *conn) control(a *agent.Agent, ctl child.Control) {
	switch ctl.Kind {
	case child.Steer:
		if err := a.Send(ctl.Text); err != nil {
			c.emit(event.Notice{Meta: a.Stamp(), Text: "not delivered (the agent finished first): " + ctl.Text})
		}
	case child.Tell:
		a.Tell(ctl.Text)
	case child.WindDown:
		a.WindDown()
	}
}

// abortErr is the cause an abort names, as agent.Classify reads it.
func abortErr(cause string) error {
	switch cause {
	case abortStopped:
		return agent.ErrStopped
	case abortSessionEnded:
		return agent.ErrSessionEnded
	case abortTimedOut:
		return context.DeadlineExceeded
	}
	return context.Canceled
}

// ask sends a question (numbered here unless it is) and waits for its
// reply, or until ctx ends or baton's input does. A caller tool's ready
// note, if asked for, closes ready.
func (c *conn) ask(ctx context.Context, q question, ready chan struct{}) reply {
	if q.ID == 0 {
		q.ID = c.nextID.Add(1)
	}
	ch := make(chan reply, 1)
	c.mu.Lock()
	c.replies[q.ID] = ch
	c.asked[q.ID] = q
	if ready != nil {
		c.readies[q.ID] = ready
	}
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.replies, q.ID)
		delete(c.asked, q.ID)
		delete(c.readies, q.ID)
		c.mu.Unlock()
	}()
	if err := c.out.write(up{Ask: &q}); err != nil {
		c.lost(err)
		return reply{ID: q.ID, Error: "baton is gone"}
	}
	select {
	case r := <-ch:
		return r
	case <-ctx.Done():
		return reply{ID: q.ID, Error: ctx.Err().Error()}
	case <-c.closed:
		return reply{ID: q.ID, Error: "baton is gone"}
	}
}

// Authorize implements agent.Authorizer: baton decides, asking the person
// when it must. The preview is made here, where the tool runs.
func (c *conn) Authorize(ctx context.Context, req agent.ToolRequest) (tools.Withhold, error) {
	a := authorize{CallID: req.CallID, Tool: req.Tool, Args: req.Args, Hook: req.Hook, Narrowed: req.Narrowed, Skills: req.Skills}
	if req.Preview != nil && !req.ReadOnly {
		preview, err := req.Preview(ctx)
		a.Preview = preview
		if err != nil {
			a.PreviewError = err.Error()
		}
	}
	r := c.ask(ctx, question{Authorize: &a}, nil)
	if err := r.err(); err != nil {
		return nil, err
	}
	if r.Withhold == nil {
		return nil, nil
	}
	return r.Withhold.Func(), nil
}

// Lock implements tools.Locker: the file is held in baton's lock table,
// shared with every agent writing in the same workspace.
func (c *conn) Lock(ctx context.Context, path string) (func(), error) {
	r := c.ask(ctx, question{Lock: path}, nil)
	unlock := func() { _ = c.out.write(up{Unlock: r.ID}) }
	if err := r.err(); err != nil {
		unlock() // a wait given up here ends at baton's end too
		return nil, err
	}
	var once sync.Once
	return func() { once.Do(unlock) }, nil
}
