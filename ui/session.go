// Package ui is baton's full-screen terminal interface: a Bubble Tea
// program that drives an engine session through its event channel and
// shows the conversation, tool calls, approval cards and key help.
//
// The root Model is a router: it owns size, focus, the overlay mode and
// event routing, and hands the work to components in files by concern.
// It never calls the engine from Update; every session call runs in a
// tea.Cmd that captures the session value.
package ui

import (
	"io"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/transcript"
	"github.com/seed-e4e525a6/baton/ui/overlay/modelpick"
)

// Session is what the UI needs from engine.Session.
type Session interface {
	Events() <-chan event.Event // one ordered lossless channel, closed when the session ends
	Submit(prompt string) error // starts a turn in the background; error if a turn is running
	Interrupt()                 // cancels the running turn and its children
	Model() string
	SetModel(name string)
	Clear() error                     // new conversation (idle only)
	Compact(focus string) error       // replaces the history with a summary, in the background (idle only)
	StopAgent(id event.AgentID) error // "all" stops every child
	// WindDownAgent asks a running child to report in one last step
	// without tools; asked again it aborts the child (aborted says so).
	WindDownAgent(id event.AgentID) (aborted bool, err error)
	SendToAgent(id event.AgentID, text string) error
	// Background sends a running child of the main agent to the
	// background: the task call waiting for it returns with its id.
	Background(id event.AgentID) error
	// ContinueAgent asks a finished child more: a follow-up with its
	// history runs in the background and its result reaches the main
	// agent.
	ContinueAgent(id event.AgentID, prompt string) error
	// History is a resumed conversation's events, drawn before live ones.
	History() []event.Event
	// AgentRecords reads an agent's transcript; it reads a file, so it is
	// called from a Cmd only.
	AgentRecords(id event.AgentID) ([]transcript.Record, error)
	// MCPServers is a snapshot of every MCP server's status; it takes a
	// lock, so it is called from a Cmd only.
	MCPServers() []event.MCPServer
	// Rules, AddRule and RemoveRule are the session's standing permission
	// rules (/permissions); called from Cmds only.
	Rules() []event.PermissionRule
	AddRule(r event.PermissionRule) error
	RemoveRule(kind, rule string) error
	// SkillStatus and HookStatus are snapshots for /skills and /hooks;
	// they take locks, so they are called from Cmds only.
	SkillStatus() []event.SkillStatus
	HookStatus() []event.HookStatus
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
	// /permissions, and SubagentSandboxInfo for sub-agents' commands
	// (network off unless granted), with what the kernel cannot hold.
	Sandbox             string
	SandboxInfo         string
	SubagentSandboxInfo string
	// Commands are the custom slash commands from command folders, sorted
	// by name; they complete after "/" and run as prompts.
	Commands []agenttypes.Command
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
	// NoMouse leaves the mouse to the terminal (mouse = false), so text
	// is selected as in any program; the wheel then no longer scrolls.
	NoMouse bool
}
