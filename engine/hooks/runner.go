package hooks

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// Runner runs a session's hooks and remembers what each did last. A nil
// Runner runs nothing.
type Runner struct {
	hooks []Hook
	dir   string
	env   []string

	mu       sync.Mutex
	last     []lastRun
	reported []bool
}

// lastRun is what one hook did last, for /hooks.
type lastRun struct {
	runs   int
	what   string
	at     time.Time
	took   time.Duration
	output string
}

// NewRunner runs hooks in dir (the workspace) with env, the environment
// every hook starts from, to which CLAUDE_PROJECT_DIR is added. Nil when
// there are no hooks.
func NewRunner(hooks []Hook, dir string, env []string) *Runner {
	if len(hooks) == 0 {
		return nil
	}
	env = append(append([]string(nil), env...), "CLAUDE_PROJECT_DIR="+dir)
	return &Runner{hooks: hooks, dir: dir, env: env, last: make([]lastRun, len(hooks)), reported: make([]bool, len(hooks))}
}

// Has reports whether any hook is configured for ev, so callers skip
// building an input nobody reads.
func (r *Runner) Has(ev Event) bool {
	if r == nil {
		return false
	}
	for _, h := range r.hooks {
		if h.Event == ev {
			return true
		}
	}
	return false
}

// Run runs every hook matching in, all at once (as Claude Code does),
// and returns what they said together. Identical commands run once. It
// returns when each has exited or been killed at its timeout, or ctx
// ended.
func (r *Runner) Run(ctx context.Context, in Input) Outcome {
	if r == nil {
		return Outcome{}
	}
	if in.Cwd == "" {
		in.Cwd = r.dir
	}
	var picked []int
	seen := map[string]bool{}
	for i, h := range r.hooks {
		if h.matches(in) && !seen[h.Target()] {
			seen[h.Target()] = true
			picked = append(picked, i)
		}
	}
	if len(picked) == 0 {
		return Outcome{}
	}
	input := in.JSON()
	verdicts := make([]verdict, len(picked))
	var wg sync.WaitGroup
	for k, i := range picked {
		wg.Add(1)
		// Each goroutine ends when its hook's process has ended: run
		// waits for it, killed at its timeout or when ctx ends.
		go func() {
			defer wg.Done()
			res := run(ctx, r.hooks[i], input, r.dir, r.env)
			verdicts[k] = read(in.Event, res)
			r.remember(i, res, verdicts[k])
		}()
	}
	wg.Wait()
	var out Outcome
	for k, i := range picked {
		v := verdicts[k]
		out.add(v)
		if v.problem != "" && r.firstProblem(i) {
			h := r.hooks[i]
			out.Problems = append(out.Problems, fmt.Sprintf("%s hook %q (%s) %s; baton goes on without it (/hooks shows its last run)",
				h.Event, clip(h.Target(), 80), h.Source, v.problem))
		}
	}
	return out
}

// remember keeps what hook i did, for /hooks.
func (r *Runner) remember(i int, res ran, v verdict) {
	what := fmt.Sprintf("exit %d", res.exit)
	switch {
	case res.stopped:
		what = res.err.Error()
	case v.problem != "":
		what = v.problem
	case v.decision != "":
		what += ": " + v.decision
	case v.block:
		what += ": blocked"
	}
	if v.reason != "" && v.block {
		what += " (" + clip(firstLine(v.reason), 120) + ")"
	}
	output := ""
	if !v.suppress {
		output = clip(firstLine(res.stdout), 200)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	l := &r.last[i]
	l.runs++
	l.what, l.at, l.took, l.output = what, time.Now(), res.took, output
}

// firstProblem reports whether hook i's problem is its first, which is
// the one reported.
func (r *Runner) firstProblem(i int) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	first := !r.reported[i]
	r.reported[i] = true
	return first
}

// Status lists every hook with what it did last, in configuration order.
func (r *Runner) Status() []event.HookStatus {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]event.HookStatus, len(r.hooks))
	for i, h := range r.hooks {
		l := r.last[i]
		out[i] = event.HookStatus{Event: string(h.Event), Matcher: h.Matcher, Command: h.Target(), Source: h.Source,
			Runs: l.runs, Last: l.what, LastAt: l.at, Took: l.took, Output: l.output}
	}
	return out
}

// firstLine is s up to its first line break.
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
