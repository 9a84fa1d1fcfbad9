package child

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/sandbox"
	"github.com/seed-e4e525a6/baton/engine/skills"
	"github.com/seed-e4e525a6/baton/engine/tools"
	"github.com/seed-e4e525a6/baton/engine/transcript"
)

// Session is what children need of the session they belong to, injected
// so that no child holds the session itself.
type Session interface {
	// Emit records ev in the transcript, then sends it on the session's
	// one ordered channel.
	Emit(ev event.Event)
	// Record keeps a message added to an agent's history in its
	// transcript.
	Record(agent event.AgentID, m openai.ChatCompletionMessage)
	// TranscriptFile is an agent's transcript file ("" without one).
	TranscriptFile(agent event.AgentID) string
	// Go runs fn, a child's whole life, on a goroutine the session waits
	// for before it closes its events; it fails once the session closes.
	Go(fn func()) error
	// Started notes a child that began its loop in the running turn.
	Started(agent event.AgentID)
	// Waits reports whether a background result queued now waits for
	// the person's next prompt (no turn runs and waking is off).
	Waits() bool
	// Wake starts a turn of its own for the queued results when no turn
	// runs and waking is on.
	Wake()
	// MainModel is the main agent's model now.
	MainModel() string
}

// Hooks are the session's hook commands bound to one child: those of its
// loop, and SubagentStart before it.
type Hooks interface {
	agent.Hooks
	// Start runs the SubagentStart hooks of the child about to run and
	// returns its prompt with the context they add.
	Start(ctx context.Context, prompt string) string
}

// Limits bound children; the session fills them from its own.
type Limits struct {
	// StepsReadOnly and StepsWrite are the step limits of built-in types
	// that only read and that can write.
	StepsReadOnly, StepsWrite int
	// Timeout bounds a child's run.
	Timeout time.Duration
	// Budget bounds a child's tokens and cost.
	Budget event.Budget
	// ResultChars bounds the text a child returns to its parent.
	ResultChars int
	// ToolOutputChars bounds one tool result.
	ToolOutputChars int
	// MaxConcurrent is how many children of one depth run at once on
	// one runner; MaxConcurrentBy overrides it by runner name.
	MaxConcurrent   int
	MaxConcurrentBy map[string]int
	// MaxDepth is how deep delegation nests.
	MaxDepth int
	// ContextFileBytes caps a nested AGENTS.md given to a child.
	ContextFileBytes int
	// BackgroundPerPrompt bounds the children the main agent sends to
	// the background after one prompt of the person.
	BackgroundPerPrompt int
}

// Options are what a Manager is built from.
type Options struct {
	Client  llm.Client
	Catalog *llm.Catalog
	Types   *agenttypes.Registry
	Limits  Limits
	// Requests is how children send model requests.
	Requests agent.RequestPolicy
	// SubagentModel is the default model of children ("": the main
	// agent's).
	SubagentModel string
	// SubagentAllow and SubagentDeny filter every child's tools on top of
	// its type (deny wins; an empty allow list means no filter).
	SubagentAllow, SubagentDeny []string
	// Workspace is the session's; worktree children get their own.
	Workspace  *tools.Workspace
	ToolLimits tools.Limits
	// Sandbox is the main agent's command sandbox; Network is [sandbox]
	// network ("on", "off" or "").
	Sandbox sandbox.Policy
	Network string
	// WebFetch configures web_fetch; without the network it is not
	// offered at all.
	WebFetch tools.WebFetchOptions
	// AgentsMD is the project's AGENTS.md, for children's prompts.
	AgentsMD string
	// MCPTools are the MCP tools connected now, MCPServers the
	// configured servers (nil: no servers).
	MCPTools   func() []tools.Tool
	MCPServers func() []event.MCPServer
	// MCPInstructions is what the connected servers mine admits add to
	// a system prompt, read at each request (nil: no servers).
	MCPInstructions func(mine func(server string) bool) func() string
	// WorktreeRoot tells the MCP servers of a child's worktree while the
	// child runs there; the func it returns takes it off (nil: none).
	WorktreeRoot func(dir string, number int, typeName string) func()
	// Skills are the skills children may load and agent files may name
	// (nil: none); SkillLoaded is told of each load, for /skills.
	Skills      *skills.Catalog
	SkillLoaded func(name string)
	// Hooks binds the session's hook commands to one child (nil: the
	// session has none).
	Hooks func(meta event.Meta, typeName string, emit func(event.Event)) Hooks
	// ChooseModel resolves the model a child asks for against what the
	// endpoint serves; why says why it is not want.
	ChooseModel func(ctx context.Context, want, fallback string) (model, why string)
	Policy      *permission.Policy
	Worktrees   WorktreeConfig
	// SessionID names the session's folder of worktrees ("" makes one).
	SessionID  string
	Transcript *transcript.Dir
	// Runner is the default runner's name; Runners are the runners
	// children can be placed with, by name, and Unavailable says why each
	// runner baton has but this session cannot offer is missing.
	Runner      string
	Runners     map[string]Runner
	Unavailable map[string]string
	// Running, when set, is told how many children run at once each time
	// that changes, from the goroutine of the child that starts or ends.
	Running func(children int)
}

// Manager starts a session's children for task calls, bounds how many
// run at once, and keeps each child's record so the person, the model and
// the session can reach it, live or long ended.
type Manager struct {
	// ctx is the session's: every child's life derives from it.
	ctx  context.Context
	opts Options
	sess Session
	// base are the tools a child's are taken from, bound to the
	// session's workspace.
	base *tools.Set
	ids  ids
	wt   *worktrees

	// slots bound running children per depth: a child waiting on its own
	// children holds its slot, so grandchildren need slots of their own.
	slotsMu sync.Mutex
	slots   map[slotKey]*slotQueue
	// writers counts the running children that can change files, for the
	// auto isolation rule.
	writers atomic.Int32
	// running counts the children between their start and their end.
	running atomic.Int32
	// warm is what readies places for the main agent's delegations.
	warm warming

	mu sync.Mutex
	// children are every child of the session, live or ended (restored
	// ones too), by id and in the order requested.
	children map[event.AgentID]*Child
	order    []*Child
	outbox
}

// NewManager readies the children of the session sess, which lives as
// long as ctx.
func NewManager(ctx context.Context, opts Options, sess Session) (*Manager, error) {
	_, offered := opts.Runners[opts.Runner]
	// A runner that could not be offered (the container runner without
	// an image) fails each child saying why (runnerOf); the session and
	// its main agent go on.
	if _, why := opts.Unavailable[opts.Runner]; !offered && !why {
		return nil, fmt.Errorf("sub-agent runner %q is not available here", opts.Runner)
	}
	m := &Manager{ctx: ctx, opts: opts, sess: sess, slots: map[slotKey]*slotQueue{}, children: map[event.AgentID]*Child{}}
	m.outbox.delivered = map[event.AgentID]bool{}
	m.outbox.live = map[event.AgentID]*Child{}
	m.base = tools.NewSet(tools.Builtin(opts.Workspace, opts.ToolLimits, opts.Sandbox, m.webFetch())...)
	m.wt = newWorktrees(m)
	return m, nil
}

// webFetch is the web_fetch options when children may have it: never
// with [sandbox] network "off".
func (m *Manager) webFetch() *tools.WebFetchOptions {
	if m.opts.Network == "off" {
		return nil
	}
	return &m.opts.WebFetch
}

// Tools are the main agent's tools for its children: task, task_status
// and task_wait.
func (m *Manager) Tools() []tools.Tool {
	return []tools.Tool{&taskTool{m: m}, &joinTool{m: m}, &joinTool{m: m, wait: true}}
}

// NoteUsed moves the ids past those a resumed transcript used.
func (m *Manager) NoteUsed(ev event.Event) { m.ids.noteUsed(ev) }

// Close runs when the session ends, after every child has: an unreviewed
// change is kept on its branch (never lost), a worktree without one is
// removed.
func (m *Manager) Close() {
	for _, r := range m.opts.Runners {
		if w, ok := r.(Warmer); ok {
			w.Cool()
		}
	}
	m.wt.closeAll()
}

// Prune forgets git's records of this repository's worktrees that
// vanished; the session runs it once as it starts, when PruneDue.
func (m *Manager) Prune(ctx context.Context) { m.wt.prune(ctx) }

// PruneDue reports, from a few file system lookups and without git,
// whether Prune may have anything to do: not in nearly every repository,
// which has no linked worktrees.
func (m *Manager) PruneDue() bool { return m.wt.pruneDue() }

// slotsAt returns the slot queue of children at depth placed by runner:
// each runner has its own slots (a container engine or a cluster takes
// more children than this machine's cores), MaxConcurrentBy[runner] of
// them, else MaxConcurrent.
func (m *Manager) slotsAt(runner string, depth int) *slotQueue {
	m.slotsMu.Lock()
	defer m.slotsMu.Unlock()
	at := slotKey{runner, depth}
	q, ok := m.slots[at]
	if !ok {
		n := m.opts.Limits.MaxConcurrent
		if by, ok := m.opts.Limits.MaxConcurrentBy[runner]; ok && by > 0 {
			n = by
		}
		q = newSlotQueue(n)
		m.slots[at] = q
	}
	return q
}

// slotKey names a slot queue: children of one runner at one depth.
type slotKey struct {
	runner string
	depth  int
}
