// Package agent is baton's agent loop: a model, a history, the tools the
// agent may use and a step limit. Run is synchronous: it loops "stream →
// run tools → append results" until the model answers without tool
// calls, a limit is hit or its context ends. The main agent and every
// child are this one type; only the Config their owner builds differs,
// so the loop never knows whether it runs in baton's process or in a
// child process of its own.
package agent

import (
	"context"
	"errors"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/contextfile"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// Config is everything an agent is built from.
type Config struct {
	// Meta is the agent's identity, carried by every event it emits.
	Meta    event.Meta
	Client  llm.Client
	Catalog *llm.Catalog
	// Model names the model of the next request; the main agent's can
	// change between turns.
	Model  func() string
	Effort string
	// Temperature and TopP are the sampling settings of the agent's type;
	// nil leaves the model's default.
	Temperature, TopP *float64
	Tools             *tools.Set
	// LiveTools, when set, adds the tools that come and go at each step:
	// the MCP tools connected, and exit_plan_mode in plan mode.
	LiveTools func() []tools.Tool
	// Authorize decides the calls that are not read-only.
	Authorize Authorizer
	// OutputChars bounds one tool result.
	OutputChars int
	// Context adds nested AGENTS.md files to tool results (nil: none).
	Context  *contextfile.Nested
	MaxSteps int
	// SummarizeAtLimit asks the model once, without tools, for a summary
	// when the step limit is reached (children do; the main agent stops).
	// A budget, a time limit and a wind-down always end with one.
	SummarizeAtLimit bool
	// Budget bounds the run's tokens and cost (zero: unbounded).
	Budget event.Budget
	// TimeLimit, when set, ends the run's steps after it and leaves the
	// rest of ctx's time for the final report.
	TimeLimit time.Duration
	// Depth is 0 for the main agent and 1 for its children.
	Depth int
	// FallbackModel is tried once when the endpoint does not know the
	// model.
	FallbackModel string
	// Requests says how model requests are retried and bounded.
	Requests RequestPolicy
	// History is what the agent starts from: at least its system prompt.
	History []openai.ChatCompletionMessage
	// Emit sends the agent's events; Record keeps each message added to
	// the history (nil: not kept).
	Emit   func(event.Event)
	Record func(openai.ChatCompletionMessage)
	// Arrivals, for the main agent, moves what arrived meanwhile (the
	// results of background children) into the history before each
	// request and returns the usage it brought (nil: nothing arrives).
	Arrivals func(*Agent) event.Usage
	// Instructions, when set, is what the MCP servers add to the system
	// prompt, read at each request.
	Instructions func() string
	// Hooks run the session's hook commands for this agent (nil: none).
	Hooks Hooks
	// ToolBegins, when set, is told the name of each tool call the model
	// begins, before its arguments have streamed, and says whether the
	// rest of the reply is wanted as it comes (see llm.Handler).
	ToolBegins func(name string) (hurry bool)
	// RequestSent, when set, is told of each request that offers tools
	// once it has been written to the endpoint, before the model has
	// answered, with the tools it offers: what a call to one of them
	// would need can be readied while the model thinks.
	RequestSent func(offered *tools.Set)
	// Skills are the skills it may load and has loaded (nil: none).
	Skills *Skills
}

// Agent is one agent loop. Run is synchronous; only its owner starts
// goroutines.
type Agent struct {
	cfg   Config
	model func() string
	exec  *executor

	history []openai.ChatCompletionMessage
	// contextUsed is the tokens of the last request (prompt and reply):
	// how full the context is, for auto-compaction.
	contextUsed int
	// notes are facts for the parent, such as a model fallback.
	notes []string
	inbox inbox
	// told holds what the agent must be told before its next request:
	// the person's decisions on its children's changes.
	told noteBox
	// halted is a stop a hook asked for during this step's calls.
	halted halt
	// wind is the person's wind-down.
	wind windDown
}

// New builds an agent from cfg.
func New(cfg Config) *Agent {
	return &Agent{cfg: cfg, model: cfg.Model, history: append([]openai.ChatCompletionMessage(nil), cfg.History...),
		exec: &executor{authorize: cfg.Authorize, outputChars: cfg.OutputChars, context: cfg.Context}}
}

// Result is how a run ended.
type Result struct {
	// Text is the agent's final text, or what it produced before it stopped.
	Text   string       `json:"text"`
	Status event.Status `json:"status"`
	// Reason explains a status other than completed, for people.
	Reason string `json:"reason,omitempty"`
	// Notes are facts the parent should know, such as a model fallback.
	Notes []string    `json:"notes,omitempty"`
	Stats event.Stats `json:"stats"`
}

// Run appends prompt as a user message and loops "stream → run tools →
// append results" until the model answers without tool calls, a limit is
// hit or ctx ends. A cancelled or failed run still returns its partial text.
// Results that arrived meanwhile come first; an empty prompt (a wake turn)
// adds no message of its own.
func (a *Agent) Run(ctx context.Context, prompt string) Result {
	return a.RunMessage(ctx, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: prompt})
}

// RunMessage is Run for a prompt that may carry pictures: msg is the
// user message, added unless it is empty.
func (a *Agent) RunMessage(ctx context.Context, msg openai.ChatCompletionMessage) Result {
	start := time.Now()
	run := &runState{}
	a.takeArrivals(run)
	a.deliverTold() // decisions made since the last turn come before the prompt
	if msg.Content != "" || len(msg.MultiContent) > 0 {
		a.Append(msg)
	}
	stepCtx, stop := a.stepContext(ctx)
	for step := 1; ; step++ {
		if end, ok := a.limitReached(ctx, stepCtx, run, step); ok {
			a.finalReport(ctx, run, step, end)
			break
		}
		if done := a.step(stepCtx, run, step, true); done {
			// A step cut short by a wind-down or the time limit
			// ends in the final report.
			if end, ok := a.limitReached(ctx, stepCtx, run, step+1); ok && stepCtx.Err() != nil && run.status != event.StatusCompleted {
				a.finalReport(ctx, run, step+1, end)
			}
			break
		}
	}
	stop()
	run.stats.Duration = time.Since(start)
	a.ended(ctx, run)
	for _, text := range a.inbox.close() {
		a.Emit(event.Notice{Meta: a.Stamp(), Text: "not delivered (the agent finished first): " + text})
	}
	return Result{Text: run.text, Status: run.status, Reason: run.reason, Notes: a.notes, Stats: run.stats}
}

// runState is what one Run accumulates across its steps.
type runState struct {
	text   string
	status event.Status
	reason string
	stats  event.Stats
	// stopHooked says the Stop (SubagentStop) hooks ran at an answer;
	// stopContinued that they sent the agent on, which the next run of
	// them is told (stop_hook_active).
	stopHooked, stopContinued bool
}

// step sends one model request and runs the tools it asks for. It reports
// whether the run is over; run.status is then set.
func (a *Agent) step(ctx context.Context, run *runState, step int, withTools bool) bool {
	a.deliverInbox()
	a.deliverTold()
	a.takeArrivals(run)
	a.Emit(event.StepStarted{Meta: a.Stamp(), Step: step, Max: a.cfg.MaxSteps})
	run.stats.Steps = step
	resp, err := a.requestWithRetry(ctx, withTools)
	if err != nil && a.fallBack(err) {
		resp, err = a.requestWithRetry(ctx, withTools)
	}
	if err != nil && contextOverflow(err) && a.elide() {
		resp, err = a.requestWithRetry(ctx, withTools)
	}
	a.account(run, resp)
	if resp.Content != "" {
		run.text = resp.Content
	}
	if err != nil {
		run.status, run.reason = Classify(ctx, err)
		// The partial message ends before the error is told, so every
		// reader sees the answer once and then why it stopped.
		a.keepPartial(resp)
		if run.status == event.StatusFailed {
			a.Emit(event.ErrorOccurred{Meta: a.Stamp(), Message: run.reason})
		}
		return true
	}
	a.Append(openai.ChatCompletionMessage{
		Role:             openai.ChatMessageRoleAssistant,
		Content:          resp.Content,
		ReasoningContent: resp.Reasoning,
		ToolCalls:        historyCalls(resp.ToolCalls),
	})
	a.Emit(event.MessageDone{Meta: a.Stamp(), Text: resp.Content})
	if len(resp.ToolCalls) == 0 || !withTools {
		if withTools && a.stopHook(ctx, run, resp.Content) {
			return false
		}
		run.status = event.StatusCompleted
		return true
	}
	outcome := a.exec.runAll(ctx, a, resp.ToolCalls)
	run.stats.ToolCalls += len(resp.ToolCalls)
	// The executor recorded each result as its call ended.
	a.history = append(a.history, outcome.messages...)
	a.addUsage(run, outcome.childUsage)
	if ctx.Err() != nil {
		run.status, run.reason = Classify(ctx, ctx.Err())
		return true
	}
	if why, stop := a.halted.take(); stop {
		run.status, run.reason = event.StatusCompleted, "stopped by a hook: "+why
		return true
	}
	return false
}

// addUsage counts usage spent outside the agent's own requests (its
// children, results that arrived) in the run and reports it.
func (a *Agent) addUsage(run *runState, u event.Usage) {
	if u.Requests > 0 || u.TotalTokens > 0 {
		run.stats.Usage = run.stats.Usage.Add(u)
		a.Emit(event.UsageReported{Meta: a.Stamp(), Request: u, Total: run.stats.Usage})
	}
}

// Stamp returns the agent's Meta with the current time.
func (a *Agent) Stamp() event.Meta {
	m := a.cfg.Meta
	m.Time = time.Now()
	return m
}

// Emit sends one of the agent's events.
func (a *Agent) Emit(ev event.Event) { a.cfg.Emit(ev) }

// Model is the model of the agent's next request.
func (a *Agent) Model() string { return a.model() }

// EndTurn ends the agent's active skills with its turn; their folders
// stay readable, since their instructions stay in the history.
func (a *Agent) EndTurn() { a.cfg.Skills.endTurn() }

// Caller is the agent as a tool acting for it sees it.
func (a *Agent) Caller() Caller {
	return Caller{Meta: a.cfg.Meta, Depth: a.cfg.Depth, Model: a.model(), Tell: a.Tell}
}

// Send queues a message from the person, delivered before the agent's
// next model request; it fails once the agent has finished.
func (a *Agent) Send(text string) error { return a.inbox.push(text) }

// Tell queues a note the agent reads before its next request (a review's
// outcome). Unlike Send it never fails: a review may end after the turn.
func (a *Agent) Tell(note string) { a.told.push(note) }

// ErrStopped is the cancel cause when the person stops one agent.
var ErrStopped = errors.New("stopped by the person")

// ErrSessionEnded is the cancel cause when the session ends under a
// running agent (the person quit, or a signal ended baton).
var ErrSessionEnded = errors.New("baton stopped while this agent ran")

// Classify maps why a run or request failed to a status and a reason.
func Classify(ctx context.Context, err error) (event.Status, string) {
	if cause := context.Cause(ctx); ctx.Err() != nil {
		switch {
		case errors.Is(cause, ErrStopped):
			return event.StatusCancelled, ErrStopped.Error()
		case errors.Is(cause, ErrSessionEnded):
			return event.StatusInterrupted, ErrSessionEnded.Error()
		case errors.Is(cause, context.DeadlineExceeded):
			return event.StatusTimedOut, "timed out"
		default:
			return event.StatusCancelled, "cancelled"
		}
	}
	return event.StatusFailed, err.Error()
}
