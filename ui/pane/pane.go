package pane

import (
	"hash/fnv"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"

	"github.com/seed-e4e525a6/baton/themes"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/convo"
)

// Pane is one child agent as the person sees it. It is not safe for
// concurrent use: like every component it lives inside the root model's
// Update.
type Pane struct {
	meta   event.Meta
	number int
	styles *themes.Styles
	label  lipgloss.Style // the type's colour
	prose  prose          // draws its messages as Markdown

	state   State
	reason  string // why it ended
	failure string // the last error seen, the reason if none is given
	focused bool
	frame   string
	// drawn is the live header as last drawn, and what from.
	drawn struct {
		key  headerKey
		line string
	}
	now time.Time

	started, ended time.Time
	duration       time.Duration // frozen at finish

	model      string
	toolNames  []string
	maxSteps   int
	timeout    time.Duration
	budget     event.Budget
	transcript string
	sandbox    string
	// where says where the child runs ("container <image>") and
	// startLatency how long placing it took, once it has started.
	where        string
	startLatency time.Duration
	// change is a worktree child's change; reviewNote what its review
	// decided.
	change     *event.Change
	reviewNote string

	step, tools int
	usage       usage
	// background is set once the parent's call let go of the child;
	// detachable when it can outlive baton.
	background, detachable bool

	todos    []event.Todo      // the child's task list, cleaned
	asking   map[string]string // pending permission request ID → the call it is about
	convo    *convo.Model      // what the child said and did; the pane draws its newest
	activity activity
}

// usage is what the child has spent so far.
type usage struct {
	total, prompt, completion int
	cost                      float64
	costKnown                 bool
}

// restingFrame is drawn by a running pane before the root's first tick.
const restingFrame = "⠋"

// New makes the pane of one child, numbered as its meta says (its number
// in the session) or, for a child recorded without one, by number. The
// type's colour is picked by hashing
// the type's name, so an Explore child wears the same colour in every
// pane and every session; two types may share a colour, and the type's
// name is always written next to it. Nil styles draw with the dark theme.
func New(meta event.Meta, number int, styles *themes.Styles) *Pane {
	if styles == nil {
		s := themes.New(themes.Dark())
		styles = &s
	}
	if meta.Number > 0 {
		number = meta.Number
	}
	p := &Pane{meta: meta, number: number, styles: styles, state: Queued, frame: restingFrame,
		convo: convo.New(meta.AgentType)}
	p.label = styles.Agent(colourIndex(meta.AgentType))
	return p
}

// colourIndex hashes a type's name (case folded) to a colour index.
func colourIndex(typ string) int {
	h := fnv.New32a()
	h.Write([]byte(strings.ToLower(strings.TrimSpace(typ))))
	return int(h.Sum32() & 0x7fffffff)
}

// SetNow gives the pane the animation clock's time. A running pane's
// elapsed time is measured against it; a finished pane's stays frozen.
func (p *Pane) SetNow(t time.Time) { p.now = t }

// SetSpinnerFrame sets the frame a running pane draws as its mark; the
// root passes its one spinner's frame on every tick.
func (p *Pane) SetSpinnerFrame(frame string) {
	if f := oneLine(frame); f != "" {
		p.frame = f
	}
}

// Focus marks the pane as the one keys go to.
func (p *Pane) Focus() { p.focused = true }

// Blur gives the focus back.
func (p *Pane) Blur() { p.focused = false }

// Focused reports whether the pane has the focus.
func (p *Pane) Focused() bool { return p.focused }

// ID is the child's agent ID, the key its events are routed by.
func (p *Pane) ID() event.AgentID { return p.meta.Agent }

// Number is the child's number in the session, the "#" its pane shows
// and /subagents takes.
func (p *Pane) Number() int { return p.number }

// Background reports whether the child runs (or ran) in the background:
// its parent's call returned and its result is delivered later.
func (p *Pane) Background() bool { return p.background }

// Detachable says whether the child can outlive baton: quitting may leave
// it running, for --continue to take up again.
func (p *Pane) Detachable() bool { return p.detachable }

// State is where the child is now.
func (p *Pane) State() State { return p.state }

// Live says whether the child has not ended yet.
func (p *Pane) Live() bool { return !p.state.Finished() }

// Running says whether the child is at work, not waiting for approval
// or a free slot, nor ended.
func (p *Pane) Running() bool { return p.state == Running }

// Meta is the child's tagging: ID, parent, type and description.
func (p *Pane) Meta() event.Meta { return p.meta }

// runTime is how long the child has run: up to now while it runs, frozen
// once it ends, zero before it starts.
func (p *Pane) runTime() time.Duration {
	switch {
	case p.state.Finished():
		return p.duration
	case p.started.IsZero() || p.now.Before(p.started):
		return 0
	}
	return p.now.Sub(p.started)
}

// Info is everything /subagents list and /subagents info print about one
// child. Its text is cleaned of control characters.
type Info struct {
	ID                                     event.AgentID
	Number                                 int
	Type, Description                      string
	State                                  State
	Reason                                 string // why it ended; empty while it lives
	Tools                                  int    // tool calls made
	Steps, MaxSteps                        int
	Elapsed                                time.Duration
	Started, Ended                         time.Time // zero until it starts, ends
	Tokens, PromptTokens, CompletionTokens int
	Cost                                   float64
	CostKnown                              bool // whether Cost means anything
	Model                                  string
	Timeout                                time.Duration
	ToolNames                              []string // the tools it was given
	Transcript                             string   // its own transcript file, if any
	Prompt                                 string   // its task, as approved (or edited)
	Sandbox                                string   // what its commands run under
	Where                                  string   // where it runs: "local", "container <image>"
	StartLatency                           time.Duration
}

// Info sums the child up.
func (p *Pane) Info() Info {
	names := make([]string, len(p.toolNames))
	for i, name := range p.toolNames {
		names[i] = oneLine(name)
	}
	return Info{
		ID: p.meta.Agent, Number: p.number, Type: oneLine(p.meta.AgentType), Description: oneLine(p.meta.Description),
		State: p.state, Reason: p.reason, Tools: p.tools, Steps: p.step, MaxSteps: p.maxSteps,
		Elapsed: p.runTime(), Started: p.started, Ended: p.ended,
		Tokens: p.usage.total, PromptTokens: p.usage.prompt, CompletionTokens: p.usage.completion,
		Cost: p.usage.cost, CostKnown: p.usage.costKnown,
		Model: oneLine(p.model), Timeout: p.timeout, ToolNames: names,
		Transcript: oneLine(p.transcript), Prompt: p.convo.Prompt(), Sandbox: oneLine(p.sandbox),
		Where: oneLine(p.where), StartLatency: p.startLatency,
	}
}
