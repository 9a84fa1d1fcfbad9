// Package ui is baton's full-screen terminal interface: a Bubble Tea
// program that drives an engine session through its event channel and
// shows the conversation, tool calls, approval cards and key help.
//
// The root Model is a router: it owns the size and layout, the layer
// stack, the global keys and event routing, and hands the work to
// components: the conversation, the input, the agents area (ui/agents),
// the approval cards (ui/approval), the slash commands (ui/command), the
// status line. It never calls the engine from Update; every session call
// runs in a tea.Cmd that captures the session value.
package ui

import (
	"io"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/transcript"
	"github.com/seed-e4e525a6/baton/ui/agents"
	"github.com/seed-e4e525a6/baton/ui/command"
	"github.com/seed-e4e525a6/baton/ui/overlay/modelpick"
)

// Session is what the UI needs from engine.Session: its events, turns
// and model; what the agents area asks of it (stop, message, background
// or continue a child); and what the slash commands ask (clear, compact,
// transcripts, snapshots, rules). A session that reviews children's
// changes (review.Reviewer) also opens reviews.
type Session interface {
	Events() <-chan event.Event // one ordered lossless channel, closed when the session ends
	Submit(prompt string) error // starts a turn in the background; error if a turn is running
	Interrupt()                 // cancels the running turn and its children
	Model() string
	SetModel(name string)
	// History is a resumed conversation's events, drawn before live ones.
	History() []event.Event
	// SetAgentMode switches normal, auto-accept and plan (shift+tab);
	// ModeChanged follows on the channel. Called from a Cmd.
	SetAgentMode(mode event.AgentMode) error
	// MentionPaths lists the workspace's files and folders for @
	// completion; it walks the tree, so it is called from a Cmd.
	MentionPaths() ([]string, error)
	// RunShell runs a !command the person typed, in the main agent's
	// sandbox under the deny rules; its events follow like a turn's.
	RunShell(command string) error
	// ID is the session's id in its folder's sessions ("" when it is not
	// recorded).
	ID() string
	// Detach lets go of the running children that can outlive baton, as
	// baton quits (the quit question's d); it returns how many.
	Detach() int
	agents.Session
	command.Session
}

// Options configures the UI; cmd fills it from flags, config and the
// model catalogue.
type Options struct {
	// Workspace is the folder the session works in, shown in the header.
	Workspace string
	// Theme names a theme of package themes; "" adapts to the terminal
	// background.
	Theme string
	// ContextWindow is the current model's context size in tokens, 0 when
	// unknown; the header shows how full it is.
	ContextWindow int64
	// ContextWindowOf gives a model's context size in tokens, 0 when
	// unknown; /model asks it for the new model, and the start model uses
	// it when ContextWindow is 0. Nil means only the start model's size
	// is known.
	ContextWindowOf func(model string) int64
	// Demo marks the offline demo: the header says "demo (offline)".
	Demo bool
	// Version is baton's version, shown by /help.
	Version string
	// Notices are startup warnings shown in the status line.
	Notices []string
	// Mode is the permission mode ("ask", "yolo"); the header shows it,
	// since in yolo nothing asks first.
	Mode string
	// Types are the sub-agent types /agents lists, and TypeWarnings the
	// problems found loading agent files.
	Types        []agenttypes.Type
	TypeWarnings []string
	// ModelOf says which model a child of a type would run on and why,
	// when that is not the model its file names; it must not block. Nil
	// shows each type's model as written.
	ModelOf func(agenttypes.Type) (model, why string)
	// Terminal, when set, is told while the UI holds the screen, so a
	// process exiting at once can give it back (see Terminal.Restore).
	Terminal *Terminal
	// Sandbox is the state of the command sandbox ("workspace-write",
	// "read-only", "off", "unavailable"); the header warns when commands
	// run unsandboxed. SandboxInfo says it in a sentence, for /help and
	// /permissions (asked only then: finding out may start a process),
	// and SubagentSandboxInfo for sub-agents' commands
	// (network off unless granted), with what the kernel cannot hold.
	Sandbox             string
	SandboxInfo         func() string
	SubagentSandboxInfo func() string
	// Commands are the custom slash commands from command folders, sorted
	// by name; they complete after "/" and run as prompts.
	Commands []agenttypes.Command
	// MCPPrompts are the connected MCP servers' prompts, each the slash
	// command /mcp__SERVER__PROMPT; they complete after "/", /help lists
	// them, and a line naming one is sent for the engine to fetch. It must
	// not block (the manager keeps a snapshot); nil knows none.
	MCPPrompts func() []event.MCPPrompt
	// Notify says how a waiting card or a long turn calls the person:
	// "bell", "title", "off", or "" for both bell and title.
	Notify string
	// Bell is the terminal the bell is rung on; nil rings none.
	Bell io.Writer
	// SaveRules writes the rules /permissions save keeps into the user
	// config and returns the file written; nil when there is none.
	SaveRules func([]event.PermissionRule) (string, error)
	// History is the project's prompt history from earlier runs, oldest
	// first; ↑ and ctrl+r reach it. RememberPrompt keeps a sent prompt in
	// it; it is called from a Cmd, never from Update, since it writes a
	// file. Nil keeps nothing.
	History        []string
	RememberPrompt func(prompt string) error
	// Models lists the endpoint's models with the catalogue's facts, for
	// the /model picker; ready is false while the list is still loading.
	// CheckModel says what is wrong with a model name ("" when nothing
	// is, or it cannot tell). Both must not block; nil knows nothing.
	Models     func() (models []modelpick.Model, ready bool)
	CheckModel func(name string) string
	// Sessions lists this folder's recorded sessions, most recently
	// active first, for /resume; Resume opens one by id in place of the
	// running session, as --resume ID would, and returns how to close the
	// one it replaces, which the UI calls once it reads the new one. Both
	// are called from Cmds; nil when sessions are not recorded.
	Sessions func() ([]transcript.Summary, error)
	Resume   func(id string) (s Session, closeOld func(), err error)
	// Trust records the workspace as trusted, as baton trust does, and
	// says what that means (/trust); called from a Cmd. Nil when there is
	// no trust list.
	Trust func() (string, error)
	// NoMouse leaves the mouse to the terminal (mouse = false), so text
	// is selected as in any program; the wheel then no longer scrolls.
	NoMouse bool

	// cardClock is the clock of the cards' typing guard (nil: tick), so
	// a test can say when typing paused rather than leave it to how
	// promptly a loaded machine runs the typist.
	cardClock func(time.Duration, tea.Msg) tea.Cmd
}
