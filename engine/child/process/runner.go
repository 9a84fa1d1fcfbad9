package process

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/lastbytes"
	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/sandbox"
)

// abortGrace is how long a child process has to report after baton asks
// it to stop, before baton kills it.
const abortGrace = 5 * time.Second

// Options configure the process runner.
type Options struct {
	// Command is the baton binary and the arguments before its hidden
	// subcommand; empty runs this program again. Launcher, when set,
	// starts the process instead (in a container).
	Command  []string
	Launcher Launcher
	// Endpoint is where children send their model requests, the key
	// included: the session's endpoint.
	Endpoint llm.Config
	// Where says where the children run, as panes show it; empty:
	// "process".
	Where string
}

// Runner places each child in a baton child process of its own (the
// hidden subcommand, see Main), speaking the protocol of this package on
// its standard input and output.
type Runner struct {
	opts   Options
	spares spares
}

// New returns a process runner.
func New(opts Options) *Runner { return &Runner{opts: opts} }

// Where implements child.Placer.
func (r *Runner) Where() string {
	if r.opts.Where != "" {
		return r.opts.Where
	}
	return child.RunnerProcess
}

// launcher is what starts the runner's child processes.
func (r *Runner) launcher() Launcher {
	if r.opts.Launcher == nil {
		return Exec{Command: r.opts.Command}
	}
	return r.opts.Launcher
}

// Start implements child.Runner: it starts the child process and returns;
// the process gets its spec, and is read and waited for, on a goroutine
// of the handle's.
func (r *Runner) Start(ctx context.Context, job child.Job) (child.Handle, error) {
	tag := "c" + strings.ToLower(rand.Text()[:10])
	tw := &lastbytes.Writer{Max: 2 << 10}
	var (
		stderr    io.Writer = tw
		tailed    tail      = tw
		home      *home
		err       error
		detaching = r.Detachable(job)
	)
	sp := r.spares.take()
	if detaching {
		if home, err = newHome(job.Home, sp == nil); err != nil {
			if sp != nil {
				r.spares.end(sp)
			}
			return nil, fmt.Errorf("start a child process: %w", err)
		}
		// A file, not a pipe: a pipe would be read by a goroutine of
		// baton's for as long as a detached child lives.
		tailed = home
		if sp == nil {
			stderr = home.stderr
		}
	}
	var proc Proc
	name := string(job.Spec.Meta.Agent)
	if sp != nil {
		// A spare that outlives baton writes its standard error to the
		// home's file itself once its spec comes (see adopt).
		proc, name = sp.proc, processName(name, sp.name)
		if !detaching {
			tailed = sp.stderr
		}
	} else if proc, err = r.launcher().Launch(ctx, job, []string{Subcommand, name}, stderr); err != nil {
		home.close()
		return nil, err
	}
	h := newHandle(job, tag)
	h.proc, h.stderr, h.in, h.out, h.caught = proc, tailed, &lineWriter{w: proc.Stdin()}, newLineReader(proc.Stdout()), true
	spec := r.spec(job, tag)
	if relayed, ok := proc.(Relayed); ok {
		spec.Endpoint.Socket = relayed.EndpointSocket()
	}
	if l, ok := proc.(loose); ok && home != nil {
		home.started() // the child holds its standard error now
		if err := home.save(l.Pid(), name); err != nil {
			proc.Kill()
			_ = proc.Wait()
			home.close()
			return nil, fmt.Errorf("start a child process: %w", err)
		}
		h.home = home
		spec.Home, spec.Socket, spec.Token = home.dir, home.socket, home.token
		track(l, true)
	}
	// Ends when the child process has ended and every question it asked
	// is answered, or baton let go of it (Detach): it kills the process
	// when ctx has ended and the process has not reported within
	// abortGrace.
	go h.run(ctx, &spec)
	return h, nil
}

// newHandle is the handle of a child about to be placed or found again.
func newHandle(job child.Job, tag string) *handle {
	return &handle{job: job, tag: tag, begin: time.Now(), done: make(chan struct{}),
		goes: map[int64]chan struct{}{}, locks: map[int64]func(){}, asks: map[int64]bool{}}
}

// spec is what a child process is started with.
func (r *Runner) spec(job child.Job, tag string) spec {
	s := job.Spec
	sp := spec{Meta: s.Meta, Prompt: job.Prompt, History: job.History, Steers: job.Steers,
		Model: s.Model, Fallback: job.Loop.FallbackModel, Effort: s.Type.Effort, Temperature: s.Type.Temperature, TopP: s.Type.TopP,
		MaxSteps: s.MaxSteps, Timeout: s.Timeout, Budget: s.Budget, Depth: s.Depth, Workspace: s.Workspace, Toolbox: s.Toolbox,
		Endpoint: endpoint{BaseURL: r.opts.Endpoint.BaseURL, APIKey: r.opts.Endpoint.APIKey, Timeouts: r.opts.Endpoint.Timeouts},
		Requests: job.Loop.Requests, OutputChars: job.Loop.OutputChars, ContextFileBytes: job.Loop.ContextFileBytes, Tag: tag,
		Skills: s.Skills, Hooks: job.Link.Hooks != nil}
	if job.Loop.Instructions != nil {
		sp.Instructions = job.Loop.Instructions()
	}
	for _, model := range []string{s.Model, job.Loop.FallbackModel} {
		if info, ok := job.Loop.Catalog.Lookup(model); ok && model != "" {
			info.ID = model
			sp.Models = append(sp.Models, info)
		}
	}
	for _, t := range job.ParentTools() {
		_, caller := t.(agent.CallerTool)
		sp.Parent = append(sp.Parent, parentTool{Name: t.Name(), Description: t.Description(), Schema: t.Schema(), ReadOnly: t.ReadOnly(), Caller: caller})
	}
	return sp
}

// handle is a child running in a child process.
type handle struct {
	job    child.Job
	stderr tail
	tag    string
	begin  time.Time
	in     *lineWriter
	out    *lineReader
	done   chan struct{}
	ending child.Ending
	// proc is the child's process, or for a child a later baton found
	// again, its connection or its log.
	proc Proc
	// home is a detachable child's folder (nil: it dies with baton);
	// gone says a later baton that looked for it found it no longer
	// running.
	home *home
	gone bool

	// questions are the questions being answered.
	questions sync.WaitGroup

	mu sync.Mutex
	// goes are the caller-tool calls waiting for their batch to be
	// ready in the child; locks the files it holds.
	goes  map[int64]chan struct{}
	locks map[int64]func()
	// recorded is its history since it started; progress what it
	// reported, its partial work should it die.
	recorded []openai.ChatCompletionMessage
	progress progress
	result   *agent.Result
	// broken says why baton stopped listening to it.
	broken error
	// detached says baton let go of it; caught that the lines replayed
	// to a baton that found it again are over (until then its questions
	// are not answered: they are asked again after the replay); asks are
	// the questions taken, so one asked twice is answered once.
	detached bool
	caught   bool
	asks     map[int64]bool
}

// Control implements child.Handle.
func (h *handle) Control(c child.Control) error {
	select {
	case <-h.done:
		return errors.New("it has finished")
	default:
	}
	if err := h.in.write(down{Control: &c}); err != nil {
		return fmt.Errorf("its process is gone: %w", err)
	}
	return nil
}

// Done implements child.Handle.
func (h *handle) Done() <-chan struct{} { return h.done }

// Ending implements child.Handle; it is set before Done closes.
func (h *handle) Ending() child.Ending { return h.ending }

// run writes the spec, reads the child's lines until its output ends,
// waits for the process and settles the ending.
func (h *handle) run(ctx context.Context, sp *spec) {
	defer close(h.done)
	defer h.home.close()
	qctx, cancelQuestions := context.WithCancel(ctx)
	var kill *time.Timer
	var killMu sync.Mutex
	stopWatch := context.AfterFunc(ctx, func() {
		if h.isDetached() {
			return // it runs on without baton
		}
		// The kill is set first: a child that reads nothing any more
		// blocks the abort's write until it is killed.
		killMu.Lock()
		kill = time.AfterFunc(abortGrace, h.proc.Kill)
		killMu.Unlock()
		_ = h.in.write(down{Abort: abortCause(ctx)})
	})
	if sp != nil {
		if err := h.in.write(down{Spec: sp}); err != nil {
			h.fail(fmt.Errorf("send its spec: %w", err))
		}
	}
	h.read(qctx)
	var waitErr error
	if !h.isDetached() {
		waitErr = h.proc.Wait()
		if l, ok := h.proc.(loose); ok {
			track(l, false)
		}
	}
	stopWatch()
	killMu.Lock()
	if kill != nil {
		kill.Stop()
	}
	killMu.Unlock()
	cancelQuestions()
	h.letGo()
	h.questions.Wait()
	h.letGo() // what the last answers took
	h.settle(ctx, waitErr)
}

// settle makes the child's ending: its result, or when it died without
// one, failed with what it had reported (or, when baton had asked it to
// stop, the status the stop gives).
func (h *handle) settle(ctx context.Context, waitErr error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	history := append(slices.Clone(h.job.History), h.recorded...)
	if h.result != nil && h.broken == nil {
		h.ending = child.Ending{Result: *h.result, History: history}
		return
	}
	if h.detached {
		// It runs on: its commands are its own, and its result is
		// found again by a later baton.
		h.ending = child.Ending{Result: h.progress.partial(time.Since(h.begin)), History: history, Detached: true}
		return
	}
	// Its commands' supervisors came to baton when it died: clean up.
	sandbox.Sweep(h.tag)
	res := h.progress.partial(time.Since(h.begin))
	res.Status, res.Reason = event.StatusFailed, h.died(waitErr)
	switch {
	case h.gone && h.broken == nil:
		res.Status, res.Reason = event.StatusInterrupted, "its process ended while no baton listened, without reporting its result"
	case ctx.Err() != nil && h.broken == nil:
		res.Status, res.Reason = agent.Classify(ctx, ctx.Err())
	}
	h.ending = child.Ending{Result: res, History: history}
}

// died says why a child process ended without its result.
func (h *handle) died(waitErr error) string {
	why := "its process ended without reporting its result"
	switch {
	case h.broken != nil:
		why = h.broken.Error()
	case waitErr != nil:
		why = "its process ended without reporting its result (" + waitErr.Error() + ")"
	}
	if tail := strings.TrimSpace(h.stderr.String()); tail != "" {
		why += "; it said: " + tail
	}
	return "the child process failed: " + why
}

// loopEndings are the statuses a child's loop can end with.
var loopEndings = []event.Status{event.StatusCompleted, event.StatusMaxSteps, event.StatusTimedOut, event.StatusBudgetExceeded, event.StatusStopped,
	event.StatusFailed, event.StatusCancelled, event.StatusInterrupted}

// abortCause is how a child process is told why it must stop.
func abortCause(ctx context.Context) string {
	switch cause := context.Cause(ctx); {
	case errors.Is(cause, agent.ErrStopped):
		return abortStopped
	case errors.Is(cause, agent.ErrSessionEnded):
		return abortSessionEnded
	case errors.Is(cause, context.DeadlineExceeded):
		return abortTimedOut
	}
	return abortCancelled
}
