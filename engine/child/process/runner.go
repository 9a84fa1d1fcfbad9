package process

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/sandbox"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// abortGrace is how long a child process has to report after baton asks
// it to stop, before baton kills it.
const abortGrace = 5 * time.Second

// Options configure the process runner.
type Options struct {
	// Command is the baton binary and the arguments before its hidden
	// subcommand; empty runs this program again.
	Command []string
	// Endpoint is where children send their model requests, the key
	// included: the session's endpoint.
	Endpoint llm.Config
}

// Runner places each child in a baton child process of its own (the
// hidden subcommand, see Main), speaking the protocol of this package on
// its standard input and output.
type Runner struct {
	opts Options
}

// New returns a process runner.
func New(opts Options) *Runner { return &Runner{opts: opts} }

// Start implements child.Runner: it starts the child process and returns;
// the process gets its spec, and is read and waited for, on a goroutine
// of the handle's.
func (r *Runner) Start(ctx context.Context, job child.Job) (child.Handle, error) {
	command := r.opts.Command
	if len(command) == 0 {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("find baton's binary: %w", err)
		}
		command = []string{exe}
	}
	tag := "c" + strings.ToLower(rand.Text()[:10])
	cmd := exec.Command(command[0], append(slices.Clone(command[1:]), Subcommand, string(job.Spec.Meta.Agent))...)
	// The environment is baton's without its secrets: the key travels
	// in the spec alone.
	cmd.Env = tools.WithoutSecrets(os.Environ())
	cmd.Dir = job.Spec.Workspace
	cmd.SysProcAttr = procAttr()
	stderr := &tailWriter{max: 2 << 10}
	cmd.Stderr = stderr
	cmd.WaitDelay = abortGrace
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("start a child process: %w", err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("start a child process: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start a child process: %w", err)
	}
	h := &handle{job: job, cmd: cmd, stderr: stderr, tag: tag, begin: time.Now(),
		in: &lineWriter{w: in}, out: newLineReader(out), done: make(chan struct{}),
		goes: map[int64]chan struct{}{}, locks: map[int64]func(){}}
	// Ends when the child process has ended and every question it asked
	// is answered: it kills the process when ctx has ended and the
	// process has not reported within abortGrace.
	go h.run(ctx, r.spec(job, tag))
	return h, nil
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
	cmd    *exec.Cmd
	stderr *tailWriter
	tag    string
	begin  time.Time
	in     *lineWriter
	out    *lineReader
	done   chan struct{}
	ending child.Ending

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
func (h *handle) run(ctx context.Context, sp spec) {
	defer close(h.done)
	qctx, cancelQuestions := context.WithCancel(ctx)
	var kill *time.Timer
	var killMu sync.Mutex
	stopWatch := context.AfterFunc(ctx, func() {
		// The kill is set first: a child that reads nothing any more
		// blocks the abort's write until it is killed.
		killMu.Lock()
		kill = time.AfterFunc(abortGrace, func() { _ = h.cmd.Process.Kill() })
		killMu.Unlock()
		_ = h.in.write(down{Abort: abortCause(ctx)})
	})
	if err := h.in.write(down{Spec: &sp}); err != nil {
		h.fail(fmt.Errorf("send its spec: %w", err))
	}
	h.read(qctx)
	waitErr := h.cmd.Wait()
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

// read takes the child's lines until its output ends; a line that breaks
// the protocol ends the child, whose rest is drained unread.
func (h *handle) read(ctx context.Context) {
	for {
		line, err := h.out.next()
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, os.ErrClosed) {
				h.fail(fmt.Errorf("read its output: %w", err))
			}
			return
		}
		if h.isBroken() {
			continue
		}
		if err := h.take(ctx, line); err != nil {
			h.fail(fmt.Errorf("it sent what baton cannot take (%w)", err))
		}
	}
}

// fail stops listening to the child and kills its process.
func (h *handle) fail(err error) {
	h.mu.Lock()
	if h.broken == nil {
		h.broken = err
	}
	h.mu.Unlock()
	_ = h.cmd.Process.Kill()
}

// isBroken reports whether baton stopped listening to the child.
func (h *handle) isBroken() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.broken != nil
}

// take handles one line from the child.
func (h *handle) take(ctx context.Context, line []byte) error {
	var u up
	if err := json.Unmarshal(line, &u); err != nil {
		return err
	}
	h.mu.Lock()
	ended := h.result != nil
	h.mu.Unlock()
	if ended {
		return errors.New("a line after its result")
	}
	switch {
	case u.Event != nil:
		ev, err := decodeEvent(u.Event, h.job.Spec.Meta)
		if err != nil {
			return err
		}
		h.note(ev)
		h.job.Link.Emit(h.retitled(ev))
	case u.Message != nil:
		h.mu.Lock()
		h.recorded = append(h.recorded, *u.Message)
		h.mu.Unlock()
		h.job.Link.Record(*u.Message)
	case u.Ask != nil:
		q := *u.Ask
		h.questions.Add(1)
		// Ends when the question is answered; every wait in it ends
		// with ctx, which ends with the child.
		go func() {
			defer h.questions.Done()
			_ = h.in.write(down{Reply: new(h.answer(ctx, q))})
		}()
	case u.Unlock != 0:
		h.unlock(u.Unlock)
	case u.Loaded != "":
		if h.job.Loop.SkillLoaded != nil {
			h.job.Loop.SkillLoaded(u.Loaded)
		}
	case u.Go != 0:
		h.mu.Lock()
		if g, ok := h.goes[u.Go]; ok {
			close(g)
			delete(h.goes, u.Go)
		}
		h.mu.Unlock()
	case u.Result != nil:
		if !slices.Contains(loopEndings, u.Result.Status) {
			return fmt.Errorf("a result with status %q", u.Result.Status)
		}
		h.mu.Lock()
		h.result = u.Result
		h.mu.Unlock()
	default:
		return errors.New("an empty line")
	}
	return nil
}

// retitled gives a call of a tool that stays with baton the title baton's
// own tool gives it.
func (h *handle) retitled(ev event.Event) event.Event {
	if st, ok := ev.(event.ToolStarted); ok {
		if t := heldTool(h.job, st.Name); t != nil {
			st.Title = t.Title([]byte(st.Args))
			return st
		}
	}
	return ev
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
	// Its commands' supervisors came to baton when it died: clean up.
	sandbox.Sweep(h.tag)
	res := h.progress.partial(time.Since(h.begin))
	res.Status, res.Reason = event.StatusFailed, h.died(waitErr)
	if ctx.Err() != nil && h.broken == nil {
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
