package engine

import (
	"context"
	"fmt"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/child/acpagent"
	"github.com/seed-e4e525a6/baton/engine/child/container"
	"github.com/seed-e4e525a6/baton/engine/child/kube"
	"github.com/seed-e4e525a6/baton/engine/child/process"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// newChildren readies the session's children, with ws the session's
// workspace and agentsMD the project's AGENTS.md for their prompts.
func (s *Session) newChildren(ws *tools.Workspace, agentsMD string) (*child.Manager, error) {
	cfg := s.cfg
	var mcpTools func() []tools.Tool
	if cfg.MCP != nil {
		mcpTools = cfg.MCP.Tools
	}
	l := cfg.Limits
	runners := map[string]child.Runner{child.RunnerLocal: child.Local{}, child.RunnerACP: acpagent.New(acpagent.Options{Version: cfg.Version})}
	unavailable := map[string]string{}
	switch {
	case cfg.Editor.Files != nil || cfg.Editor.Terminal != nil:
		unavailable[child.RunnerProcess] = "an editor's files and terminal are reachable from baton's process only"
	case cfg.Endpoint.BaseURL == "" && cfg.Endpoint.APIKey == "":
		unavailable[child.RunnerProcess] = "the session has no endpoint configuration a child process could use"
	default:
		runners[child.RunnerProcess] = process.New(process.Options{Endpoint: cfg.Endpoint})
		s.offerContainers(runners, unavailable)
		s.offerKubernetes(runners, unavailable)
	}
	if why, ok := unavailable[child.RunnerProcess]; ok {
		unavailable[child.RunnerContainer] = why
	}
	runner := cfg.Runner
	// A child meant for a container never runs on the host instead: it
	// fails saying why (child.Manager).
	if why, ok := unavailable[runner]; ok && runner == child.RunnerContainer {
		s.note(fmt.Sprintf("sub-agents run in containers, and the container runner is not available here (%s): they will fail rather than run on this machine", why))
	} else if ok {
		s.note(fmt.Sprintf("sub-agents run on the local runner: the %s runner is not available here (%s)", runner, why))
		runner = child.RunnerLocal
	}
	return child.NewManager(s.ctx, child.Options{
		Client: cfg.Client, Catalog: cfg.Catalog, Types: cfg.Types, Requests: cfg.requestPolicy(),
		Limits: child.Limits{StepsReadOnly: l.ChildStepsReadOnly, StepsWrite: l.ChildStepsWrite, Timeout: l.ChildTimeout, Budget: l.ChildBudget,
			ResultChars: l.ResultChars, ToolOutputChars: l.ToolOutputChars, MaxConcurrent: l.MaxConcurrent, MaxConcurrentBy: clampRunners(cfg.RunnerMaxConcurrent), MaxDepth: l.MaxDepth,
			ContextFileBytes: l.ContextFileBytes, BackgroundPerPrompt: l.BackgroundPerPrompt},
		SubagentModel: cfg.SubagentModel, SubagentAllow: cfg.SubagentAllow, SubagentDeny: cfg.SubagentDeny,
		Workspace: ws, ToolLimits: s.toolLimits(), Sandbox: cfg.Sandbox, Network: cfg.SandboxNetwork, WebFetch: cfg.WebFetch,
		AgentsMD: agentsMD, MCPTools: mcpTools, MCPServers: s.MCPServers, MCPInstructions: s.mcpInstructions, WorktreeRoot: s.worktreeRoot,
		ChooseModel: s.served.choose, Policy: s.perms,
		Skills: cfg.Skills, SkillLoaded: s.countSkillLoad, Hooks: s.hooks.forChild(),
		Worktrees: s.worktrees(), SessionID: s.ID(), Transcript: cfg.Transcript,
		Runner: runner, Runners: runners, Unavailable: unavailable, Running: cfg.Running,
	}, host{s})
}

// toolLimits are the limits of every agent's tools.
func (s *Session) toolLimits() tools.Limits {
	return tools.Limits{OutputChars: s.cfg.Limits.ToolOutputChars, CommandTimeout: s.cfg.Limits.CommandTimeout}
}

// webFetch is web_fetch's options, nil when [sandbox] network is "off":
// then no agent has the network, web_fetch included.
func (s *Session) webFetch() *tools.WebFetchOptions {
	if s.cfg.SandboxNetwork == "off" {
		return nil
	}
	return &s.cfg.WebFetch
}

// host is what the session does for its children (child.Session).
type host struct{ s *Session }

// Emit implements child.Session.
func (h host) Emit(ev event.Event) { h.s.emit(ev) }

// Record implements child.Session.
func (h host) Record(id event.AgentID, m openai.ChatCompletionMessage) { h.s.recordMessages(id)(m) }

// TranscriptFile implements child.Session.
func (h host) TranscriptFile(id event.AgentID) string { return h.s.rec.fileOf(id) }

// MainModel implements child.Session.
func (h host) MainModel() string { return h.s.Model() }

// Go implements child.Session: fn runs on a goroutine the session waits
// for before it closes its events.
func (h host) Go(fn func()) error {
	s := h.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return ErrClosed
	}
	s.turns.Add(1)
	// This goroutine ends when the child's life does: its run is bounded
	// by the child's timeout and cancelled with the session's context.
	go func() {
		defer s.turns.Done()
		fn()
	}()
	return nil
}

// Started implements child.Session: a child of the running turn.
func (h host) Started(id event.AgentID) {
	s := h.s
	s.mu.Lock()
	defer s.mu.Unlock()
	s.turnChildren = append(s.turnChildren, id)
}

// Waits implements child.Session.
func (h host) Waits() bool {
	s := h.s
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cfg.NoWakeOnResult && !s.busy
}

// Wake implements child.Session.
func (h host) Wake() { h.s.wakeIfPending() }

// StopAgent stops one child; it ends cancelled with its partial text and
// its siblings carry on. "all" stops every child.
func (s *Session) StopAgent(id event.AgentID) error { return s.children.Stop(id) }

// SendToAgent queues a message for a running child, delivered before its
// next model request.
func (s *Session) SendToAgent(id event.AgentID, text string) error { return s.children.Send(id, text) }

// Background sends a running child of the main agent to the background:
// the task call waiting for it returns at once with its id, and its result
// is delivered when it ends. It is the b key on a pane.
func (s *Session) Background(id event.AgentID) error { return s.children.Background(id) }

// ContinueAgent asks a finished child more from the keyboard
// (/subagents send N to a finished child): a follow-up of it runs in the
// background, without a card since the person asked for it, and its
// result is delivered to the main agent.
func (s *Session) ContinueAgent(ref event.AgentID, prompt string) error {
	return s.children.Continue(s.mainCaller(), ref, prompt)
}

// Detach lets go of every running child that can outlive baton, as baton
// quits (the quit question's d): each runs on where its runner placed
// it, and --continue takes it up again. It returns how many it let go
// of; the others stop with the session.
func (s *Session) Detach() int { return s.children.Detach() }

// ResumeAgent continues a child that ended before it finished (a crash,
// a quit, a stop, a failure, its time limit) from its transcript, in its
// worktree if it had one (/subagents resume N): a follow-up in the
// background whose result is delivered to the main agent.
func (s *Session) ResumeAgent(ref event.AgentID) error {
	return s.children.Resume(s.mainCaller(), ref)
}

// RetryAgent starts a child's task afresh with the same type, prompt and
// model (/subagents retry N), in the background; its result is delivered
// to the main agent.
func (s *Session) RetryAgent(ref event.AgentID) error {
	return s.children.Retry(s.mainCaller(), ref)
}

// BackgroundChildren lists the children that ran in the background, in
// the order they were requested.
func (s *Session) BackgroundChildren() []child.BackgroundChild {
	return s.children.BackgroundChildren()
}

// Quiet reports whether nothing will happen without the person: no turn
// runs, no background child runs, and no result waits for a turn that
// will start on its own. A headless run exits once it is quiet.
func (s *Session) Quiet() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.busy && !s.children.Running() && (s.children.Pending() == 0 || !s.mayWake())
}

// mayWake says a result may start a turn of its own: waking is on and the
// turns results started since the person's prompt are below the bound.
// s.mu is held.
func (s *Session) mayWake() bool {
	return !s.cfg.NoWakeOnResult && s.wakes < s.cfg.Limits.WakeTurns
}

// Review returns a worktree child's change as it stands: files, hunks
// and what was decided on each so far.
func (s *Session) Review(id event.AgentID) (event.Review, error) { return s.children.Review(id) }

// ApplyChange merges part of a child's change into the person's working
// tree with a three-way merge against its snapshot: every undecided file
// (file < 0), one file's undecided hunks (hunk < 0), or one hunk. With
// resolution "" a conflict is returned, and nothing of that file written,
// so the person can see both sides and call again with "mine", "child"
// or "markers". Files before the conflicting one stay applied.
func (s *Session) ApplyChange(ctx context.Context, id event.AgentID, file, hunk int, resolution string) (*event.ReviewConflict, error) {
	return s.children.ApplyChange(ctx, id, file, hunk, resolution)
}

// SkipChange leaves part of a child's change out (file < 0: all that is
// undecided, which discards the rest of the change).
func (s *Session) SkipChange(id event.AgentID, file, hunk int) error {
	return s.children.SkipChange(id, file, hunk)
}

// Kept lists the worktrees left for the person so far: by --worktrees
// keep, or, once the session is closed, every change nobody reviewed.
func (s *Session) Kept() []child.KeptWorktree { return s.children.Kept() }

// Merges lists what headless --worktrees apply did with the changes of
// worktree children so far.
func (s *Session) Merges() []child.Merge { return s.children.Merges() }

// PreviewFanIn merges the chosen changes waiting for review in memory
// (nil: every one that did not fail its own verification) and shows where
// they overlap or conflict.
func (s *Session) PreviewFanIn(ctx context.Context, chosen []event.AgentID) (event.FanIn, error) {
	return s.children.PreviewFanIn(ctx, chosen)
}

// VerifyFanIn verifies a preview's merged result in a scratch worktree.
func (s *Session) VerifyFanIn(ctx context.Context, id string) (event.FanIn, error) {
	return s.children.VerifyFanIn(ctx, id)
}

// ApplyFanIn applies a preview's merge to the working tree, all or none;
// an unverified merge only when unverified says so.
func (s *Session) ApplyFanIn(ctx context.Context, id string, unverified bool) (event.FanInApplied, error) {
	return s.children.ApplyFanIn(ctx, id, unverified)
}

// wakeIfPending starts a turn of its own for the results waiting, when
// no turn runs and waking is on. Once the wake turns of this prompt are
// spent the results wait for the person, who is told which (ResultsHeld)
// unless they already were.
func (s *Session) wakeIfPending() {
	s.children.InOrder(func() {
		s.mu.Lock()
		if s.busy || s.closing || s.children.Pending() == 0 || s.cfg.NoWakeOnResult {
			s.mu.Unlock()
			return
		}
		if s.mayWake() {
			s.startTurn("", s.children.WakeLabel())
			s.mu.Unlock()
			return
		}
		held := s.children.Hold()
		s.mu.Unlock()
		if len(held) > 0 {
			s.send(event.ResultsHeld{Meta: event.Meta{Agent: event.MainAgent, Time: time.Now()}, Children: held, WakeTurns: s.cfg.Limits.WakeTurns})
		}
	})
}

// trashTranscripts moves the children's transcripts to the trash when the
// configuration asks for it.
func (s *Session) trashTranscripts(children []event.AgentID) {
	if s.rec == nil || !s.cfg.TrashChildTranscripts {
		return
	}
	for _, id := range children {
		if err := s.cfg.Transcript.Trash(string(id), time.Now()); err != nil {
			s.send(event.Notice{Meta: event.Meta{Agent: event.MainAgent, Time: time.Now()}, Text: "transcript cleanup: " + err.Error()})
		}
	}
}

// offerContainers adds the container runner when [runner.container]
// names an image, or says why it is not available.
func (s *Session) offerContainers(runners map[string]child.Runner, unavailable map[string]string) {
	opts := s.cfg.Container
	if opts.Image == "" {
		unavailable[child.RunnerContainer] = "[runner.container] names no image"
		return
	}
	opts.Endpoint = s.cfg.Endpoint
	r, err := container.New(opts)
	if err != nil {
		unavailable[child.RunnerContainer] = err.Error()
		return
	}
	runners[child.RunnerContainer] = r
}

// WindDownAgent asks a running child to report what it has in one last
// step without tools (it ends stopped); asked again, or before the child
// started, it aborts the child at once. aborted says which.
func (s *Session) WindDownAgent(id event.AgentID) (aborted bool, err error) {
	return s.children.WindDown(id)
}

// offerKubernetes adds the kubernetes runner when [runner.kubernetes]
// names an image, or says why it is not available.
func (s *Session) offerKubernetes(runners map[string]child.Runner, unavailable map[string]string) {
	opts := s.cfg.Kubernetes
	if opts.Image == "" {
		unavailable[child.RunnerKubernetes] = "[runner.kubernetes] names no image"
		return
	}
	opts.Endpoint = s.cfg.Endpoint
	r, err := kube.New(opts)
	if err != nil {
		unavailable[child.RunnerKubernetes] = err.Error()
		return
	}
	runners[child.RunnerKubernetes] = r
}

// worktrees is the worktree configuration with the verify bound of the
// session's limits.
func (s *Session) worktrees() child.WorktreeConfig {
	w := s.cfg.Worktrees
	w.VerifyTimeout = s.cfg.Limits.VerifyTimeout
	return w
}
