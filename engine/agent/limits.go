package agent

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// ErrWoundDown is the cause a step ends with when the person winds the
// agent down: it then reports in one last step without tools.
var ErrWoundDown = errors.New("wound down by the person")

// errTimeBudget is the cause a step ends with when the agent's time
// limit is reached.
var errTimeBudget = errors.New("time limit reached")

// finalReportPrompt is sent, without tools, when a limit or budget runs
// out or the person winds the agent down; why says which.
const finalReportPrompt = "%s, so you cannot call tools any more. " +
	"Reply now with your final report: what you found or did, with file paths, and what remains undone."

// ending is why a run must end with a final report: its status and
// reason.
type ending struct {
	status event.Status
	reason string
	// ask is the first words of the final report's prompt.
	ask string
}

// windDown is the agent's wind-down switch: set once, it cancels the
// step under way.
type windDown struct {
	mu     sync.Mutex
	asked  bool
	cancel context.CancelCauseFunc
}

// WindDown asks the agent to stop calling tools and report in one last
// step; the step under way ends at once. It is a no-op once asked.
func (a *Agent) WindDown() {
	w := &a.wind
	w.mu.Lock()
	defer w.mu.Unlock()
	w.asked = true
	if w.cancel != nil {
		w.cancel(ErrWoundDown)
	}
}

// stepContext is the context the run's steps run under: ctx, ended
// early by a wind-down or the time limit. Its cancel is returned.
func (a *Agent) stepContext(ctx context.Context) (context.Context, context.CancelFunc) {
	stepCtx, cancel := context.WithCancelCause(ctx)
	stop := func() { cancel(nil) }
	if a.cfg.TimeLimit > 0 {
		var stopTime context.CancelFunc
		stepCtx, stopTime = context.WithTimeoutCause(stepCtx, a.cfg.TimeLimit, errTimeBudget)
		stop = func() { stopTime(); cancel(nil) }
	}
	a.wind.mu.Lock()
	a.wind.cancel = cancel
	if a.wind.asked {
		cancel(ErrWoundDown)
	}
	a.wind.mu.Unlock()
	return stepCtx, stop
}

// limitReached says whether the run must end before step (its ending),
// or ended early under stepCtx while ctx lives on.
func (a *Agent) limitReached(ctx, stepCtx context.Context, run *runState, step int) (ending, bool) {
	if ctx.Err() != nil {
		return ending{}, false
	}
	switch cause := context.Cause(stepCtx); {
	case errors.Is(cause, ErrWoundDown):
		return ending{status: event.StatusStopped, reason: ErrWoundDown.Error(), ask: "The person supervising you asked you to wind down"}, true
	case errors.Is(cause, errTimeBudget):
		why := fmt.Sprintf("time limit of %s reached", a.cfg.TimeLimit.Round(time.Second))
		return ending{status: event.StatusTimedOut, reason: why, ask: "Your " + why}, true
	}
	if why := a.cfg.Budget.Spent(run.stats.Usage); why != "" {
		return ending{status: event.StatusBudgetExceeded, reason: why, ask: "Your " + why}, true
	}
	if step > a.cfg.MaxSteps {
		return ending{status: event.StatusMaxSteps, reason: "step limit reached", ask: "You have reached your step limit"}, true
	}
	return ending{}, false
}

// finalReport ends the run with end: when the agent reports at limits
// (or the person wound it down), one last step without tools, under ctx.
func (a *Agent) finalReport(ctx context.Context, run *runState, step int, end ending) {
	run.status, run.reason = end.status, end.reason
	reports := a.cfg.SummarizeAtLimit || end.status == event.StatusStopped || end.status == event.StatusBudgetExceeded ||
		(end.status == event.StatusTimedOut && a.cfg.TimeLimit > 0)
	if !reports || ctx.Err() != nil {
		return
	}
	a.Append(openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: fmt.Sprintf(finalReportPrompt, end.ask)})
	a.step(ctx, run, step, false)
	if run.status == event.StatusCompleted {
		run.status, run.reason = end.status, end.reason
	}
}
