package engine

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/contextfile"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/skills"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// ErrBusy is returned by Submit while a turn runs.
var ErrBusy = errors.New("a turn is already running")

// ErrClosed is returned once the session has ended.
var ErrClosed = errors.New("the session has ended")

// Session is one conversation: the main agent, its children, and the one
// ordered, lossless event channel that reports all of them.
type Session struct {
	cfg      Config
	ctx      context.Context
	cancel   context.CancelCauseFunc
	events   chan event.Event
	done     chan struct{}
	perms    *permission.Policy
	children *child.Manager
	// ids are the ids of the person's own calls.
	ids personCalls
	// ws is the person's workspace; mainGate the policy of the main
	// agent, which the person's own calls (@mentions, !commands) share.
	ws       *tools.Workspace
	mainGate permission.Gate
	rec      *recorder
	// history is what a resumed conversation looked like, for the UI;
	// resumeNotes are the problems resuming found.
	history     []event.Event
	resumeNotes []string
	// found are the children of a resumed session that ran on without
	// baton, taken up again once the session is ready.
	found []event.AgentStarted
	// startNotes are what the person should know before the first turn:
	// project files cut or skipped on the way into the prompt.
	startNotes []string
	// pendingUsage counts, while resuming, the requests of a turn that
	// has not ended (yet, or ever).
	pendingUsage event.Usage
	// mcpNotes are the MCP server notes told so far.
	mcpNotes mcpNotes

	mu    sync.Mutex
	turns sync.WaitGroup
	// background counts the session's own goroutines (the model list,
	// the worktree prune).
	background sync.WaitGroup
	served     *servedModels
	closing    bool
	busy       bool
	turnCancel context.CancelFunc
	// turnChildren are the children started in the running turn, whose
	// transcripts are trashed when it ends if so configured.
	turnChildren []event.AgentID
	main         *agent.Agent
	model        string
	totals       event.Usage
	// wakes counts the turns results started since the person's last
	// prompt; they are bounded per prompt (Limits.WakeTurns).
	wakes int
	// hooks run the person's hook commands (nil: none); starting holds
	// what SessionStart hooks add to the next prompt; skillLoads counts
	// the loads of each skill, for /skills.
	hooks      *hookPoints
	starting   starting
	skillMu    sync.Mutex
	skillLoads map[string]int
}

// NewSession checks cfg, fills in defaults and starts a session that
// lives until ctx ends or Close is called.
func NewSession(ctx context.Context, cfg Config) (*Session, error) {
	if cfg.Client == nil {
		return nil, errors.New("new session: no model client")
	}
	if cfg.Model == "" {
		return nil, errors.New("new session: no model name")
	}
	cfg, err := withDefaults(cfg)
	if err != nil {
		return nil, err
	}
	s := &Session{cfg: cfg, events: make(chan event.Event, 256), done: make(chan struct{}), model: cfg.Model}
	s.ctx, s.cancel = context.WithCancelCause(ctx)
	if s.perms, err = permission.New(cfg.Mode, cfg.Workspace, cfg.Allow, cfg.Rules); err != nil {
		s.cancel(nil)
		return nil, fmt.Errorf("new session: %w", err)
	}
	ws, err := tools.NewEditorWorkspace(cfg.Workspace, cfg.Editor)
	if err != nil {
		s.cancel(nil)
		return nil, fmt.Errorf("new session: %w", err)
	}
	s.hooks = newHookPoints(cfg, func(id event.AgentID) string { return s.rec.fileOf(id) })
	s.perms.Notify(s.notifyHooks)
	s.startModelList()
	s.watchMCP()
	// The project's AGENTS.md goes into the main agent's prompt and every
	// child's: it is read once.
	agentsMD, note := contextfile.Read(ws.Root(), filepath.Join(ws.Root(), "AGENTS.md"), cfg.Limits.ContextFileBytes)
	s.note(note)
	if s.children, err = s.newChildren(ws, agentsMD); err != nil {
		s.cancel(nil)
		return nil, fmt.Errorf("new session: %w", err)
	}
	s.ws = ws
	s.main = s.newMainAgent(ws, agentsMD)
	if cfg.Transcript != nil {
		s.rec = &recorder{dir: cfg.Transcript}
		if err := s.resume(); err != nil {
			s.cancel(nil)
			return nil, err
		}
	}
	// The prune runs beside the start only when it may have work: a
	// goroutine started for nothing still costs its start and the
	// growth of its stack (the binary's tables read for each frame on
	// it, in a headless run's peak RSS).
	if s.children.PruneDue() {
		s.background.Add(1)
		// Ends when the few git commands of the prune return (each bounded).
		go func() {
			defer s.background.Done()
			s.children.Prune(s.ctx)
		}()
	}
	if notes := s.children.Reopen(s.history, s.mainCaller()); len(notes) > 0 {
		for _, note := range notes {
			s.resumeNotes = append(s.resumeNotes, note)
			s.history = append(s.history, event.Notice{Meta: event.Meta{Agent: event.MainAgent, Time: time.Now()}, Text: note})
		}
	}
	s.children.Reattach(s.found, s.mainCaller())
	// This goroutine ends when the session's context does: it waits for
	// every turn to finish, then closes the event channel.
	go s.closeWhenDone()
	source := "startup"
	if len(s.history) > 0 {
		source = "resume"
	}
	s.startHooks(source, "")
	return s, nil
}

// Events is the session's one ordered event channel. It is closed when the
// session ends.
func (s *Session) Events() <-chan event.Event { return s.events }

// Model is the main agent's current model.
func (s *Session) Model() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.model
}

// SetModel switches the main agent's model from the next request on.
func (s *Session) SetModel(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.model = name
}

// Workspace is the folder the session works in.
func (s *Session) Workspace() string { return s.cfg.Workspace }

// Usage is the session's running total, children included.
func (s *Session) Usage() event.Usage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.totals
}

// Interrupt cancels the running turn and every child it started. The
// partial text stays in the history.
func (s *Session) Interrupt() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.turnCancel != nil {
		s.turnCancel()
	}
}

// Clear starts a new conversation. It fails while a turn runs.
func (s *Session) Clear() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.busy {
		return ErrBusy
	}
	s.main.Restart()
	if err := s.rec.event(event.ConversationCleared{Meta: event.Meta{Agent: event.MainAgent, Time: time.Now()}}); err != nil {
		return err
	}
	// Started once the lock is let go: the hooks run as a session job.
	defer s.startHooks("clear", "clear")
	return nil
}

// Close ends the session: it cancels every turn and child, waits for them
// and closes Events. What was running is recorded as interrupted, as a
// crash would be on resume. Calling it again does nothing.
func (s *Session) Close() {
	s.cancel(agent.ErrSessionEnded)
	<-s.done
}

// Empty reports whether the conversation holds nothing to resume: no
// prompt was sent in it, now or in the resumed record.
func (s *Session) Empty() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.busy && s.main.Empty()
}

// closeWhenDone closes the event channel once the session's context ended
// and no turn runs any more.
func (s *Session) closeWhenDone() {
	<-s.ctx.Done()
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	s.turns.Wait()
	s.background.Wait()
	// The session's context has ended: SessionEnd hooks get their own
	// time, bounded by their timeouts.
	s.sessionEnd(context.WithoutCancel(s.ctx), "other")
	s.children.Close()
	close(s.events)
	close(s.done)
}

// newMainAgent builds the agent the person talks to.
func (s *Session) newMainAgent(ws *tools.Workspace, agentsMD string) *agent.Agent {
	set := tools.NewSet(tools.Builtin(ws, s.toolLimits(), s.cfg.Sandbox, s.webFetch())...)
	if s.cfg.Limits.MaxDepth > 0 {
		for _, t := range s.children.Tools() {
			set = set.With(t)
		}
	}
	system, notes := mainPrompt(s.cfg.SystemPrompt, s.cfg.Workspace, ws.Root(), s.cfg.Limits.ContextFileBytes, agentsMD)
	if extra := strings.TrimSpace(s.cfg.AppendSystemPrompt); extra != "" {
		system += "\n\n" + extra
	}
	for _, n := range notes {
		s.note(n)
	}
	offered := s.cfg.Skills.Offered()
	skillState := agent.NewSkills(offered, nil, s.countSkillLoad)
	if skillState != nil {
		set = set.With(agent.SkillTool(skillState))
		system += "\n\n" + skills.Listing(offered)
	}
	meta := event.Meta{Agent: event.MainAgent}
	s.mainGate = s.perms.For(permission.Who{Meta: meta, Emit: s.emit}, nil)
	return agent.New(agent.Config{
		Meta: meta, Client: s.cfg.Client, Catalog: s.cfg.Catalog,
		Model: s.Model, Tools: set, LiveTools: s.mainLiveTools(), Instructions: s.mcpInstructions(nil), MaxSteps: s.cfg.Limits.MaxSteps,
		Budget: s.cfg.Limits.TurnBudget, Authorize: s.mainGate, OutputChars: s.cfg.Limits.ToolOutputChars,
		Context: contextfile.NewNested(s.cfg.Workspace, s.cfg.Limits.ContextFileBytes, "AGENTS.md", "CLAUDE.md"),
		History: []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleSystem, Content: system}},
		Emit:    s.emit, Record: s.recordMessages(event.MainAgent), Requests: s.cfg.requestPolicy(),
		Arrivals: s.children.Deliver, Hooks: s.hooks.forMain(s.emit), Skills: skillState,
		ToolBegins: s.children.ToolBegins, RequestSent: s.children.RequestSent,
	})
}

// mainCaller is the main agent as the tools acting for it see it.
func (s *Session) mainCaller() agent.Caller { return s.main.Caller() }

// StartNotes are what the person should know before the first turn, such
// as an AGENTS.md that was skipped (a link to a device or outside the
// workspace) or cut to its cap; cmd shows them with its own notices.
func (s *Session) StartNotes() []string {
	return append([]string(nil), s.startNotes...)
}

// note keeps a start note once; the main prompt and the children's read
// the same AGENTS.md.
func (s *Session) note(text string) {
	if text != "" && !slices.Contains(s.startNotes, text) {
		s.startNotes = append(s.startNotes, text)
	}
}

// ToolNames are the tools the main agent is offered now: its own, then
// the MCP tools of the servers connected at this moment.
func (s *Session) ToolNames() []string { return s.main.ToolNames() }
