package engine

import (
	"context"
	"errors"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// Agent is one agent loop: a model, a history, the tools it may use and a
// step limit. Run is synchronous; only the session starts goroutines.
type Agent struct {
	meta    event.Meta
	client  llm.Client
	catalog *llm.Catalog
	model   func() string
	effort  string
	// temperature and topP are the sampling settings of the agent's type;
	// nil leaves the model's default.
	temperature, topP *float64
	tools             *tools.Set
	// liveTools, when set, adds the MCP tools connected at each step.
	liveTools func() []tools.Tool
	// instructions, when set, is what the MCP servers add to the system
	// prompt, read at each request.
	instructions func() string
	exec         *executor
	// worktree is the folder a worktree child works in, which its
	// permission cards name; "" for an agent in the person's tree.
	worktree string
	// rules are a child's own permissions; nil for the main agent, whose
	// rules are the session's standing ones.
	rules    *agentRules
	maxSteps int
	// summarizeAtLimit asks the model once, without tools, for a summary
	// when the step limit is reached (children do; the main agent stops).
	summarizeAtLimit bool
	// depth is 0 for the main agent and 1 for its children.
	depth int
	// fallbackModel is tried once when the endpoint does not know the
	// model; notes records that it happened.
	fallbackModel string
	notes         []string
	// requests says how model requests are retried and bounded.
	requests requestPolicy

	history []openai.ChatCompletionMessage
	// contextUsed is the tokens of the last request (prompt and reply):
	// how full the context is, for auto-compaction.
	contextUsed int
	inbox       inbox
	// reviewNotes hold what the person decided on the changes of this
	// agent's worktree children, delivered before its next request.
	reviewNotes *noteBox
	// arrivals, for the main agent, moves background children's results
	// into the history before each request (nil: none arrive).
	arrivals func(*Agent, *runState)
	emit     func(event.Event)
	// record keeps each message added to the history in the transcript.
	record func(openai.ChatCompletionMessage)
	// skills are the skills the agent may load and has loaded (nil:
	// none); typeName is a child's type ("explore"), which hooks see.
	skills   *skillState
	typeName string
	// halted is a stop a hook asked for during this step's calls.
	halted halt
}

// Result is how a run ended.
type Result struct {
	// Text is the agent's final text, or what it produced before it stopped.
	Text   string
	Status event.Status
	// Reason explains a status other than completed, for people.
	Reason string
	// Notes are facts the parent should know, such as a model fallback.
	Notes []string
	Stats event.Stats
}

// stepLimitPrompt is sent, without tools, when a child reaches its limit.
const stepLimitPrompt = "You have reached your step limit and cannot call tools any more. " +
	"Reply now with your final report: what you found or did, with file paths, and what remains undone."

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
	a.deliverReviewNotes() // decisions made since the last turn come before the prompt
	if msg.Content != "" || len(msg.MultiContent) > 0 {
		a.addHistory(msg)
	}
	for step := 1; ; step++ {
		if step > a.maxSteps {
			run.status, run.reason = event.StatusMaxSteps, "step limit reached"
			if a.summarizeAtLimit && ctx.Err() == nil {
				a.addHistory(openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: stepLimitPrompt})
				a.step(ctx, run, step, false)
				if run.status == event.StatusCompleted {
					run.status, run.reason = event.StatusMaxSteps, "step limit reached"
				}
			}
			break
		}
		if done := a.step(ctx, run, step, true); done {
			break
		}
	}
	run.stats.Duration = time.Since(start)
	a.exec.hooks.childEnded(ctx, a, run)
	for _, text := range a.inbox.close() {
		a.emit(event.Notice{Meta: a.stamp(), Text: "not delivered (the agent finished first): " + text})
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
	a.deliverReviewNotes()
	a.takeArrivals(run)
	a.emit(event.StepStarted{Meta: a.stamp(), Step: step, Max: a.maxSteps})
	run.stats.Steps = step
	resp, err := a.requestWithRetry(ctx, withTools)
	if err != nil && a.fallBack(err) {
		resp, err = a.requestWithRetry(ctx, withTools)
	}
	if err != nil && contextOverflow(err) && a.compact() {
		resp, err = a.requestWithRetry(ctx, withTools)
	}
	a.account(run, resp)
	if resp.Content != "" {
		run.text = resp.Content
	}
	if err != nil {
		run.status, run.reason = classifyRunError(ctx, err)
		// The partial message ends before the error is told, so every
		// reader sees the answer once and then why it stopped.
		a.keepPartial(resp)
		if run.status == event.StatusFailed {
			a.emit(event.ErrorOccurred{Meta: a.stamp(), Message: run.reason})
		}
		return true
	}
	a.addHistory(openai.ChatCompletionMessage{
		Role:             openai.ChatMessageRoleAssistant,
		Content:          resp.Content,
		ReasoningContent: resp.Reasoning,
		ToolCalls:        historyCalls(resp.ToolCalls),
	})
	a.emit(event.MessageDone{Meta: a.stamp(), Text: resp.Content})
	if len(resp.ToolCalls) == 0 || !withTools {
		if withTools && a.exec.hooks.stopHook(ctx, a, run, resp.Content) {
			return false
		}
		run.status = event.StatusCompleted
		return true
	}
	outcome := a.exec.runAll(ctx, a, resp.ToolCalls)
	run.stats.ToolCalls += len(resp.ToolCalls)
	// The executor recorded each result as its call ended.
	a.history = append(a.history, outcome.messages...)
	if outcome.childUsage.Requests > 0 || outcome.childUsage.TotalTokens > 0 {
		run.stats.Usage = run.stats.Usage.Add(outcome.childUsage)
		a.emit(event.UsageReported{Meta: a.stamp(), Request: outcome.childUsage, Total: run.stats.Usage})
	}
	if ctx.Err() != nil {
		run.status, run.reason = classifyRunError(ctx, ctx.Err())
		return true
	}
	if why, stop := a.halted.take(); stop {
		run.status, run.reason = event.StatusCompleted, "stopped by a hook: "+why
		return true
	}
	return false
}

// stamp returns the agent's Meta with the current time.
func (a *Agent) stamp() event.Meta {
	m := a.meta
	m.Time = time.Now()
	return m
}

// errStopped is the cancel cause when the person stops one agent.
var errStopped = errors.New("stopped by the person")

// classifyRunError maps why a request failed to a status and a reason.
func classifyRunError(ctx context.Context, err error) (event.Status, string) {
	if cause := context.Cause(ctx); ctx.Err() != nil {
		switch {
		case errors.Is(cause, errStopped):
			return event.StatusCancelled, errStopped.Error()
		case errors.Is(cause, errSessionClosed):
			return event.StatusInterrupted, errSessionClosed.Error()
		case errors.Is(cause, context.DeadlineExceeded):
			return event.StatusTimedOut, "timed out"
		default:
			return event.StatusCancelled, "cancelled"
		}
	}
	return event.StatusFailed, err.Error()
}
