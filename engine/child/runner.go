package child

import (
	"context"
	"fmt"
	"slices"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/contextfile"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// Runner places a child's loop: Local in baton's own process, and others
// elsewhere (a child process of its own). Whatever the runner, the child's
// events, questions and history reach the session through the job's
// Link, and its ending through the Handle, so the person sees the same
// pane, cards, fold line and review.
type Runner interface {
	// Start begins the job's loop and returns at once. The loop ends,
	// and the handle's Done closes, when the model is done, a limit is
	// hit or ctx ends; ctx's cause says why (agent.ErrStopped: the
	// person stopped it; agent.ErrSessionEnded; its deadline). A runner
	// that loses its child ends it failed with what it had reported.
	Start(ctx context.Context, job Job) (Handle, error)
}

// Job is a child ready to run.
type Job struct {
	Spec Spec
	// Prompt is the prompt the person approved (perhaps edited).
	Prompt string
	// History is what the child starts from: its system prompt, or the
	// history of the child a follow-up continues.
	History []openai.ChatCompletionMessage
	// Steers are the messages the person sent before the child started,
	// delivered before its first request.
	Steers []string
	// Delegate is the task tool when the child may delegate (nil: it
	// may not); its children are the session's, placed by their own
	// runners.
	Delegate agent.CallerTool
	// Workspace is the child's workspace in this process: every agent
	// writing there shares its file locks.
	Workspace *tools.Workspace
	// Home is the child's folder in the session's state, where a runner
	// whose children can outlive baton keeps what it needs to find one
	// again and what the child reports while no baton listens ("": the
	// session is not recorded, so nothing can be found again).
	Home string
	Loop Loop
	Link Link
}

// Loop is what a child's loop takes from the session rather than from
// its spec.
type Loop struct {
	Client  llm.Client
	Catalog *llm.Catalog
	// SkillLoaded is told of each skill the child loads (nil: nobody).
	SkillLoaded func(name string)
	// Instructions is what the child's MCP servers add to its system
	// prompt, read at each request (nil: none).
	Instructions func() string
	// FallbackModel is tried once when the endpoint does not know the
	// child's model.
	FallbackModel    string
	Requests         agent.RequestPolicy
	OutputChars      int
	ContextFileBytes int
}

// Link is a child's way back to its session, the same for every runner:
// its events and history messages out, its tool questions to the
// session's one approval queue.
type Link struct {
	Emit      func(event.Event)
	Record    func(openai.ChatCompletionMessage)
	Authorize agent.Authorizer
	// Hooks run the session's hook commands at the points of the
	// child's loop (nil: none).
	Hooks agent.Hooks
}

// Handle is a placed child as its runner reports it.
type Handle interface {
	// Control sends a control into the running child. Stopping it is
	// not a control: that is cancelling the context Start took.
	Control(Control) error
	// Done is closed once the child's loop has ended; Ending then says
	// how.
	Done() <-chan struct{}
	Ending() Ending
}

// ControlKind says what a control asks of a running child.
type ControlKind string

// The controls a child takes.
const (
	// Steer delivers a message from the person before the child's next
	// request; it fails once the child has finished.
	Steer ControlKind = "steer"
	// Tell delivers a note from baton (the outcome of a review of the
	// child's own child's change) before its next request.
	Tell ControlKind = "tell"
	// WindDown asks the child to stop calling tools and report what it
	// has in one last step.
	WindDown ControlKind = "wind_down"
)

// Control is one control into a running child.
type Control struct {
	Kind ControlKind `json:"kind"`
	Text string      `json:"text"`
}

// Ending is how a child's loop ended: its result, partial on failure,
// and its history, for a follow-up. Detached says baton let go of the
// child while it ran on (Detacher): it has not ended, and its result is
// found again by Attacher.
type Ending struct {
	agent.Result
	History  []openai.ChatCompletionMessage `json:"-"`
	Detached bool                           `json:"-"`
}

// Detacher is a Handle whose child can outlive baton: a child process in
// a session of its own, a container, a cluster Job. Detach lets go of the
// child without stopping it: it runs on within its own time limit and
// budget, keeping what it reports where Attacher finds it, and its
// questions wait (it never answers them itself). The handle's Done then
// closes with an Ending that says Detached.
type Detacher interface {
	Detach() error
}

// Attacher is a Runner whose children can outlive baton (their handles
// are Detachers). Attach finds again the child of job (its Home, its
// Spec.Meta) that a baton before this one started: a child still running
// is re-attached, its events and history since replayed, its open
// questions asked again; one that ended while no baton listened delivers
// its result; one that died without it ends interrupted with what it had
// reported. The handle is as Start's: ctx stops the child.
type Attacher interface {
	Runner
	// Detachable says whether a child of job could outlive baton (a
	// runner may need the job's Home to keep it).
	Detachable(job Job) bool
	Attach(ctx context.Context, job Job) (Handle, error)
}

// Warmer is a Runner that can ready a place for a child before the child
// is asked for: a process already started, its program loaded and its
// initialisation done, that waits for a spec. Nothing runs in it until
// Start hands it a job, which happens only once the delegation is
// approved; a place is used once, and one nobody takes is ended.
type Warmer interface {
	Runner
	// Warm readies places, for children of the workspace ws, until n
	// wait or are being readied (or the runner's own bound is reached).
	// It returns at once.
	Warm(ws string, n int)
	// Cool ends the places readied and not taken, and readies none
	// after it.
	Cool()
}

// Agent builds the agent a job runs, with set its tools as built where
// the loop runs; the skill tool joins them when the child has skills.
func (j Job) Agent(set *tools.Set) *agent.Agent {
	spec := j.Spec
	model := spec.Model
	skills := agent.NewSkills(spec.Skills.Offered, spec.Skills.Preload, j.Loop.SkillLoaded)
	if skills != nil {
		set = set.With(agent.SkillTool(skills))
	}
	return agent.New(agent.Config{
		Meta: spec.Meta, Client: j.Loop.Client, Catalog: j.Loop.Catalog,
		Model: func() string { return model }, Effort: spec.Type.Effort,
		Temperature: spec.Type.Temperature, TopP: spec.Type.TopP,
		Tools: set, Authorize: j.Link.Authorize, OutputChars: j.Loop.OutputChars,
		Context:  contextfile.NewNested(spec.Workspace, j.Loop.ContextFileBytes, "AGENTS.md"),
		MaxSteps: spec.MaxSteps, SummarizeAtLimit: true, Budget: spec.Budget, TimeLimit: spec.Timeout, Depth: spec.Depth, FallbackModel: j.Loop.FallbackModel,
		Requests: j.Loop.Requests, History: j.History, Emit: j.Link.Emit, Record: j.Link.Record,
		Hooks: j.Link.Hooks, Skills: skills, Instructions: j.Loop.Instructions,
	})
}

// Local runs a child's loop in baton's process, on a goroutine of its
// own: the default runner.
type Local struct{}

// Where implements Placer.
func (Local) Where() string { return RunnerLocal }

// Placer is a runner that says where it places children, as panes,
// cards and fold lines show it ("container <image>"); a runner that does
// not is shown by its name.
type Placer interface {
	Where() string
}

// LatePlacer is a runner that reports a child's placing itself, with
// event.AgentPlaced, once it is known (a Job's pod has started), rather
// than when Start returns.
type LatePlacer interface {
	PlacesLate()
}

// whereOf is where runner, named name, places children.
func whereOf(name string, runner Runner) string {
	if p, ok := runner.(Placer); ok {
		return p.Where()
	}
	return name
}

// Start implements Runner.
func (Local) Start(ctx context.Context, job Job) (Handle, error) {
	set := job.Spec.tools(job.Workspace)
	if job.Delegate != nil {
		set = set.With(job.Delegate)
	}
	a := job.Agent(set)
	for _, text := range job.Steers {
		_ = a.Send(text) // it has not run, so its inbox is open
	}
	h := &localHandle{agent: a, done: make(chan struct{})}
	// Ends when the loop does: the model answered, a limit was hit or
	// ctx ended.
	go func() {
		defer close(h.done)
		res := a.Run(ctx, job.Prompt)
		h.ending = Ending{Result: res, History: a.History()}
	}()
	return h, nil
}

// localHandle is a child running on a goroutine of baton's.
type localHandle struct {
	agent  *agent.Agent
	done   chan struct{}
	ending Ending
}

// Control implements Handle.
func (h *localHandle) Control(c Control) error {
	switch c.Kind {
	case Steer:
		return h.agent.Send(c.Text)
	case Tell:
		h.agent.Tell(c.Text)
		return nil
	case WindDown:
		h.agent.WindDown()
		return nil
	}
	return errUnknownControl(c.Kind)
}

// Done implements Handle.
func (h *localHandle) Done() <-chan struct{} { return h.done }

// Ending implements Handle; it is set before Done closes.
func (h *localHandle) Ending() Ending { return h.ending }

// errUnknownControl is the error for a control a runner does not know.
func errUnknownControl(kind ControlKind) error {
	return fmt.Errorf("unknown control %q", kind)
}

// The runners' names, as [subagents] runner and an agent file's runner:
// field spell them.
const (
	RunnerLocal      = agenttypes.RunnerLocal
	RunnerProcess    = agenttypes.RunnerProcess
	RunnerContainer  = agenttypes.RunnerContainer
	RunnerKubernetes = agenttypes.RunnerKubernetes
	RunnerACP        = agenttypes.RunnerACP
)

// ParentTools are the tools of the job that stay with the session: those
// of its spec and, when it may delegate, task. A runner that places the
// child elsewhere runs them here when the child calls them.
func (j Job) ParentTools() []tools.Tool {
	out := slices.Clone(j.Spec.Parent)
	if j.Delegate != nil {
		out = append(out, j.Delegate)
	}
	return out
}
