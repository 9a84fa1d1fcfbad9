package acpagent

import (
	"context"
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

	"github.com/seed-e4e525a6/baton/engine/acp/jsonrpc"
	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/lastbytes"
)

// The waits on an ACP child, variables only so that tests can shorten
// them.
var (
	// startTimeout bounds the agent's start: initialize and session/new
	// (an agent npx fetches first may take a while).
	startTimeout = 2 * time.Minute
	// cancelGrace is how long the agent has to end its turn after
	// session/cancel before its processes are killed.
	cancelGrace = 5 * time.Second
)

// The bounds of what an ACP child sends.
const (
	// maxMessageBytes bounds one message from the agent.
	maxMessageBytes = 8 << 20
	// maxMalformed is how many lines that are not JSON-RPC an agent may
	// send (a stray log line) before baton stops listening to it.
	maxMalformed = 16
	// maxFollowUps bounds the messages the person sends a running child,
	// each a prompt turn of its own after the current one.
	maxFollowUps = 16
)

// Options configure the acp runner.
type Options struct {
	// Version is baton's version, told to the agent.
	Version string
}

// Runner places each child of an acp-runner type in the ACP agent its
// agent file names.
type Runner struct{ opts Options }

// New returns an acp runner.
func New(opts Options) *Runner { return &Runner{opts: opts} }

// Start implements child.Runner: it starts the agent's process and
// returns; the conversation with it runs on a goroutine of the handle's.
func (r *Runner) Start(ctx context.Context, job child.Job) (child.Handle, error) {
	a := job.Spec.Type.ACP
	if a == nil {
		return nil, fmt.Errorf("agent type %q names no ACP agent (acp: {command, args})", job.Spec.Type.Name)
	}
	cmd := exec.Command(a.Command, a.Args...)
	cmd.Env = Environ(os.Environ(), a.Env)
	cmd.Dir = job.Workspace.Root()
	cmd.SysProcAttr = procAttr()
	cmd.WaitDelay = cancelGrace
	stderr := &lastbytes.Writer{Max: 2 << 10}
	cmd.Stderr = stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", a.Command, err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", a.Command, err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start the ACP agent %s: %w", a.Command, err)
	}
	h := &handle{job: job, cmd: cmd, in: in, stderr: stderr, begin: time.Now(), done: make(chan struct{}),
		follow: make(chan string, maxFollowUps), stream: newStream(job), granted: map[string]int{}}
	h.limitCtx, h.endByLimit = context.WithCancel(context.Background())
	h.stream.onToolCall = h.countStep
	h.conn = jsonrpc.NewConn(in, &client{h: h}, jsonrpc.Options{MaxMessageBytes: maxMessageBytes, Malformed: h.malformed})
	for _, s := range job.Steers {
		h.follow <- s
	}
	read := make(chan error, 1)
	// The agent's requests are answered under serveCtx, which ends with
	// the child or once the conversation is over.
	serveCtx, endRequests := context.WithCancel(ctx)
	// Ends when the agent's output does: at its exit, or when baton
	// kills its processes.
	go func() { read <- h.conn.Serve(serveCtx, out) }()
	// Ends when the conversation does and the process is gone.
	go h.run(ctx, endRequests, read, r.opts.Version)
	return h, nil
}

// handle is a child running as an ACP agent.
type handle struct {
	job    child.Job
	cmd    *exec.Cmd
	in     io.WriteCloser
	conn   *jsonrpc.Conn
	stderr *lastbytes.Writer
	begin  time.Time
	done   chan struct{}
	ending child.Ending
	// follow holds the person's messages for the turns after this one.
	follow chan string
	stream *stream

	mu        sync.Mutex
	sessionID string
	finished  bool
	// granted are the files the person let the agent edit, by their
	// resolved path: the write that follows an allowed edit is not asked
	// about twice.
	granted map[string]int
	bad     int
	broken  error
	// exited is set once the process was waited for: its id may be
	// another's by then, so nothing kills it any more.
	exited bool
	// limit is the ending baton chose for the agent (its step limit, a
	// hook's stop), set once; limitCtx ends then, which ends its turn.
	limit      *agent.Result
	limitCtx   context.Context
	endByLimit context.CancelFunc
}

// Control implements child.Handle: a message is a prompt turn of its own
// once the running one ends (ACP takes nothing into a running turn).
func (h *handle) Control(c child.Control) error {
	if c.Kind != child.Steer && c.Kind != child.Tell {
		return fmt.Errorf("unknown control %q", c.Kind)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.finished {
		return errors.New("it has finished")
	}
	select {
	case h.follow <- c.Text:
		return nil
	default:
		return fmt.Errorf("it already has %d messages waiting", maxFollowUps)
	}
}

// Done implements child.Handle.
func (h *handle) Done() <-chan struct{} { return h.done }

// Ending implements child.Handle; it is set before Done closes.
func (h *handle) Ending() child.Ending { return h.ending }

// run holds the conversation: start the session, the prompt turns, then
// the end of the process; read reports the end of the agent's output,
// and endRequests ends the agent's requests still being answered.
func (h *handle) run(ctx context.Context, endRequests context.CancelFunc, read <-chan error, version string) {
	defer close(h.done)
	var timers []*time.Timer
	var timersMu sync.Mutex
	later := func(fn func()) {
		timersMu.Lock()
		timers = append(timers, time.AfterFunc(cancelGrace, fn))
		timersMu.Unlock()
	}
	// A stop asks the agent to end its turn, and gives up on the turn
	// and kills the agent if it has not within the grace.
	turnCtx, abandon := context.WithCancel(context.WithoutCancel(ctx))
	defer abandon()
	stop := func() {
		h.cancelTurn()
		later(func() {
			abandon()
			h.kill()
		})
	}
	stopWatch := context.AfterFunc(ctx, stop)
	limitWatch := context.AfterFunc(h.limitCtx, stop)
	res := h.converse(ctx, turnCtx, version)
	stopWatch()
	limitWatch()
	h.endByLimit()
	res = h.limited(ctx, res)
	h.mu.Lock()
	h.finished = true
	h.mu.Unlock()
	// The agent is done with: close its input, and kill what is left of
	// it after the grace, so a process that lingers never holds baton.
	endRequests()
	h.conn.Wait()
	_ = h.in.Close()
	later(h.kill)
	// Its output ends when it exits; a descendant that escaped its
	// group and holds the pipe is cut off by Wait (WaitDelay).
	var readErr error
	readDone := false
	select {
	case readErr = <-read:
		readDone = true
	case <-time.After(2 * cancelGrace):
		h.kill()
	}
	waitErr := h.cmd.Wait()
	if !readDone {
		readErr = <-read
	}
	h.mu.Lock()
	h.exited = true
	h.mu.Unlock()
	timersMu.Lock()
	for _, t := range timers {
		t.Stop()
	}
	timersMu.Unlock()
	h.settle(ctx, res, readErr, waitErr)
}

// converse starts the agent's session and runs its prompt turns; its
// result is the ending unless the agent broke or died. A turn runs under
// turnCtx, which outlives ctx by the grace the agent has to answer
// session/cancel.
func (h *handle) converse(ctx, turnCtx context.Context, version string) agent.Result {
	startCtx, cancel := context.WithTimeout(ctx, startTimeout)
	err := h.start(startCtx, version)
	cancel()
	if err != nil {
		// Err stays DeadlineExceeded after cancel only when the time
		// ran out first: any other failure keeps its own reason.
		if ctx.Err() == nil && errors.Is(startCtx.Err(), context.DeadlineExceeded) {
			err = fmt.Errorf("it did not start within %s", startTimeout)
		}
		return h.failed(ctx, err)
	}
	prompt := h.job.Prompt
	if sp := strings.TrimSpace(h.job.Spec.Type.SystemPrompt); sp != "" {
		prompt = sp + "\n\n" + prompt
	}
	for {
		h.job.Link.Record(openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: prompt})
		var resp promptResponse
		err := h.conn.Call(turnCtx, "session/prompt", promptRequest{SessionID: h.session(), Prompt: []textBlock{{Type: "text", Text: prompt}}}, &resp)
		h.stream.endMessage()
		if err != nil {
			return h.failed(ctx, err)
		}
		spent := h.account(resp.Usage)
		if resp.StopReason != "end_turn" {
			return h.stopped(ctx, resp.StopReason)
		}
		select {
		case prompt = <-h.follow:
			if spent != "" {
				res := h.stream.result(time.Since(h.begin))
				res.Status, res.Reason = event.StatusBudgetExceeded, spent+"; the message waiting for it was not sent"
				return res
			}
			if ctx.Err() == nil && h.limitCtx.Err() == nil {
				continue
			}
		default:
		}
		res := h.stream.result(time.Since(h.begin))
		res.Status = event.StatusCompleted
		return res
	}
}

// start is initialize and session/new; a turn that cannot run without
// signing in to the agent is an error naming its methods.
func (h *handle) start(ctx context.Context, version string) error {
	var init initializeResponse
	req := initializeRequest{ProtocolVersion: protocolVersion, ClientInfo: implementation{Name: "baton", Version: version},
		ClientCapabilities: clientCapabilities{FS: fsCapabilities{ReadTextFile: true, WriteTextFile: true}}}
	if err := h.conn.Call(ctx, "initialize", req, &init); err != nil {
		return err
	}
	if init.ProtocolVersion != protocolVersion {
		return fmt.Errorf("it speaks ACP version %d; baton speaks %d", init.ProtocolVersion, protocolVersion)
	}
	var sess newSessionResponse
	if err := h.conn.Call(ctx, "session/new", newSessionRequest{Cwd: h.job.Workspace.Root(), MCPServers: []any{}}, &sess); err != nil {
		var re *jsonrpc.Error
		if errors.As(err, &re) && re.Code == codeAuthRequired && len(init.AuthMethods) > 0 {
			var names []string
			for _, m := range init.AuthMethods {
				names = append(names, m.Name)
			}
			return fmt.Errorf("it needs signing in first (%s); sign it in once outside baton", strings.Join(names, ", "))
		}
		return err
	}
	if sess.SessionID == "" {
		return errors.New("session/new answered without a session id")
	}
	h.mu.Lock()
	h.sessionID = sess.SessionID
	h.mu.Unlock()
	return nil
}

// codeAuthRequired is ACP's error for a session that needs signing in.
const codeAuthRequired = -32000

// session is the agent's session id ("" before session/new answered).
func (h *handle) session() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.sessionID
}

// failed is the ending of a conversation that broke off.
func (h *handle) failed(ctx context.Context, err error) agent.Result {
	res := h.stream.result(time.Since(h.begin))
	if ctx.Err() != nil {
		res.Status, res.Reason = agent.Classify(ctx, ctx.Err())
		return res
	}
	res.Status, res.Reason = event.StatusFailed, "the ACP agent: "+err.Error()
	return res
}

// stopped is the ending of a turn that stopped for a reason other than
// its end.
func (h *handle) stopped(ctx context.Context, reason string) agent.Result {
	res := h.stream.result(time.Since(h.begin))
	switch {
	case ctx.Err() != nil:
		res.Status, res.Reason = agent.Classify(ctx, ctx.Err())
	case reason == "cancelled":
		res.Status, res.Reason = event.StatusCancelled, "the ACP agent cancelled its turn"
	case reason == "max_turn_requests":
		res.Status, res.Reason = event.StatusMaxSteps, "the ACP agent reached its own turn limit"
	case reason == "max_tokens":
		res.Status, res.Reason = event.StatusFailed, "the ACP agent ran out of tokens"
	case reason == "refusal":
		res.Status, res.Reason = event.StatusFailed, "the ACP agent refused the task"
	default:
		res.Status, res.Reason = event.StatusFailed, fmt.Sprintf("the ACP agent stopped with %q", reason)
	}
	return res
}

// cancelTurn asks the agent to end its turn.
func (h *handle) cancelTurn() {
	if id := h.session(); id != "" {
		_ = h.conn.Notify("session/cancel", sessionRef{SessionID: id})
	}
}

// malformed notes a line from the agent that is not JSON-RPC: after
// maxMalformed baton stops listening and kills it.
func (h *handle) malformed(err error) {
	h.mu.Lock()
	h.bad++
	bad := h.bad
	if bad > maxMalformed && h.broken == nil {
		h.broken = fmt.Errorf("it sent %d lines that are not ACP messages (the last: %v)", bad, err)
	}
	h.mu.Unlock()
	if bad == 1 {
		h.stream.notice("the ACP agent sent a line that is not an ACP message: " + err.Error())
	}
	if bad > maxMalformed {
		h.kill()
	}
}

// kill ends the agent's whole process group, unless it was waited for.
func (h *handle) kill() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.exited {
		killGroup(h.cmd.Process)
	}
}

// settle makes the child's ending: the conversation's result, or failed
// with what the agent had streamed when it broke or died first.
func (h *handle) settle(ctx context.Context, res agent.Result, readErr, waitErr error) {
	h.mu.Lock()
	broken := h.broken
	h.mu.Unlock()
	if broken != nil && ctx.Err() == nil {
		res.Status, res.Reason = event.StatusFailed, "the ACP agent: "+broken.Error()
	}
	if res.Status == event.StatusFailed {
		if tail := strings.TrimSpace(h.stderr.String()); tail != "" {
			res.Reason += "; it said: " + tail
		}
		if readErr != nil {
			res.Reason += "; reading it: " + readErr.Error()
		}
		if waitErr != nil && !strings.Contains(res.Reason, "exit") {
			res.Reason += " (" + waitErr.Error() + ")"
		}
	}
	history := slices.Clone(h.job.History)
	if res.Text != "" {
		msg := openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, Content: res.Text}
		h.job.Link.Record(msg)
		history = append(history, msg)
	}
	h.ending = child.Ending{Result: res, History: history}
}
