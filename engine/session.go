package engine

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/skills"
)

// ErrBusy is returned by Submit while a turn runs.
var ErrBusy = errors.New("a turn is already running")

// ErrClosed is returned once the session has ended.
var ErrClosed = errors.New("the session has ended")

// Session is one conversation: the main agent, its children, and the one
// ordered, lossless event channel that reports all of them.
type Session struct {
	cfg    Config
	ctx    context.Context
	cancel context.CancelCauseFunc
	events chan event.Event
	done   chan struct{}
	ids    idSource
	perms  *permissions
	deleg  *delegator
	wt     *worktrees
	rec    *recorder
	// history is what a resumed conversation looked like, for the UI;
	// resumeNotes are the problems resuming found.
	history     []event.Event
	resumeNotes []string
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
	// background counts the session's own goroutines (the model list).
	background sync.WaitGroup
	served     *servedModels
	closing    bool
	busy       bool
	turnCancel context.CancelFunc
	// turnChildren are the children started in the running turn, whose
	// transcripts are trashed when it ends if so configured.
	turnChildren []event.AgentID
	main         *Agent
	model        string
	totals       event.Usage
	// queued are background results waiting for the main agent, bgLive
	// the background children still running, delivered the children whose
	// result the main agent has, and owed the usage of results task_wait
	// took, counted with the main agent's next request.
	queued    []delivery
	bgLive    map[event.AgentID]*childRun
	delivered map[event.AgentID]bool
	owed      event.Usage
	// wakes counts the turns results started since the person's last
	// prompt, sentToBackground the task calls that sent a child to the
	// background since then; both are bounded per prompt (Limits).
	wakes, sentToBackground int
	// queueMu orders a result's ResultQueued before its ResultDelivered
	// on the channel: it is held from queueing to the event, and while a
	// result is taken and delivered. Taken before mu, never under it.
	queueMu sync.Mutex
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
	s := &Session{cfg: cfg, events: make(chan event.Event, 256), done: make(chan struct{}), model: cfg.Model,
		bgLive: map[event.AgentID]*childRun{}, delivered: map[event.AgentID]bool{}}
	s.ctx, s.cancel = context.WithCancelCause(ctx)
	if s.perms, err = newPermissions(cfg, &s.ids); err != nil {
		s.cancel(nil)
		return nil, err
	}
	s.hooks = newHookPoints(cfg)
	s.perms.notify = s.notifyHooks
	s.startModelList()
	s.watchMCP()
	if s.deleg, err = newDelegator(s); err != nil {
		s.cancel(nil)
		return nil, err
	}
	s.main = s.newMainAgent()
	if cfg.Transcript != nil {
		s.rec = &recorder{dir: cfg.Transcript}
		if err := s.resume(); err != nil {
			s.cancel(nil)
			return nil, err
		}
	}
	if s.hooks != nil {
		s.hooks.rec = s.rec
	}
	s.startWorktrees()
	s.reopenReviews()
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
	s.main.history = s.main.history[:1]
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
	s.cancel(errSessionClosed)
	<-s.done
}

// errSessionClosed is the cancel cause when the session ends under a
// running turn (the person quit, or a signal ended baton).
var errSessionClosed = errors.New("baton stopped while this agent ran")

// Empty reports whether the conversation holds nothing to resume: no
// prompt was sent in it, now or in the resumed record.
func (s *Session) Empty() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.busy && len(s.main.history) <= 1
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
	s.wt.closeAll()
	close(s.events)
	close(s.done)
}

// newMainAgent builds the agent the person talks to.
func (s *Session) newMainAgent() *Agent {
	set := s.deleg.base
	if s.cfg.Limits.MaxDepth > 0 {
		set = set.With(&taskTool{d: s.deleg}).With(&joinTool{s: s}).With(&joinTool{s: s, wait: true})
	}
	system, notes := mainPrompt(s.cfg.SystemPrompt, s.cfg.Workspace, s.cfg.Limits.ContextFileBytes)
	if extra := strings.TrimSpace(s.cfg.AppendSystemPrompt); extra != "" {
		system += "\n\n" + extra
	}
	for _, n := range notes {
		s.note(n)
	}
	offered := s.cfg.Skills.Offered()
	if len(offered) > 0 {
		set = set.With(skillTool{})
		system += "\n\n" + skills.Listing(offered)
	}
	return &Agent{
		meta: event.Meta{Agent: event.MainAgent}, client: s.cfg.Client, catalog: s.cfg.Catalog,
		model: s.Model, tools: set, liveTools: s.mcpTools(), instructions: s.mcpInstructions(nil), maxSteps: s.cfg.Limits.MaxSteps,
		exec: &executor{perms: s.perms, outputChars: s.cfg.Limits.ToolOutputChars, hooks: s.hooks,
			context: newNestedContext(s.cfg.Workspace, s.cfg.Limits.ContextFileBytes, "AGENTS.md", "CLAUDE.md")},
		skills:  newSkillState(offered, nil, s.countSkillLoad),
		history: []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleSystem, Content: system}},
		emit:    s.emit, record: s.recordMessages(event.MainAgent), requests: s.cfg.requestPolicy(),
		reviewNotes: &noteBox{},
		arrivals:    s.deliverQueued,
	}
}

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
func (s *Session) ToolNames() []string {
	names := s.main.tools.Names()
	if s.main.liveTools != nil {
		for _, t := range s.main.liveTools() {
			names = append(names, t.Name())
		}
	}
	return names
}
