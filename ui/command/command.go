// Package command is the registry of slash commands: each is a Command
// (name, arguments, description, completion, run) in a file of its own,
// and the custom commands from command folders join them. /help and the
// completion popup read the registry, so what they list is what runs.
// A command acts through the parts of the UI its Env hands it (the
// session in a Cmd, the status line, the agents area, the layer stack);
// what only the root can do (write into the conversation, send a prompt,
// switch the model or theme) comes back as one message, a Result.
package command

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/transcript"
	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/agents"
	"github.com/seed-e4e525a6/baton/ui/convo"
	"github.com/seed-e4e525a6/baton/ui/input"
	"github.com/seed-e4e525a6/baton/ui/overlay"
	"github.com/seed-e4e525a6/baton/ui/overlay/modelpick"
	"github.com/seed-e4e525a6/baton/ui/status"
)

// Command is one slash command.
type Command struct {
	// Name is what follows "/"; Args what it takes, as help shows it
	// ("NAME", "[FOCUS]"), "" for nothing; Desc says what it does.
	Name, Args, Desc string
	// Complete lists what may follow "/Name " as rest is typed; nil
	// offers nothing.
	Complete func(env *Env, rest string) []input.Candidate
	// Run does it; arg is the rest of the line, trimmed. It never blocks:
	// a session call goes into the Cmd it returns.
	Run func(env *Env, arg string) tea.Cmd
}

// Session is what the commands ask of the engine; every call is made from
// a Cmd.
type Session interface {
	Clear() error               // new conversation (idle only)
	Compact(focus string) error // replaces the history with a summary, in the background (idle only)
	// AgentRecords reads an agent's transcript.
	AgentRecords(id event.AgentID) ([]transcript.Record, error)
	// MCPServers, SkillStatus and HookStatus are snapshots for /mcp,
	// /skills and /hooks.
	MCPServers() []event.MCPServer
	SkillStatus() []event.SkillStatus
	HookStatus() []event.HookStatus
	// Rules, AddRule and RemoveRule are the standing permission rules
	// (/permissions).
	Rules() []event.PermissionRule
	AddRule(r event.PermissionRule) error
	RemoveRule(kind, rule string) error
}

// Options are what the commands know from the start: cmd's.
type Options struct {
	// Version is baton's; SandboxInfo and SubagentSandboxInfo say in a
	// sentence what the main agent's and the sub-agents' commands run
	// under. /help shows them, /permissions the sandboxes; they are asked
	// only then, from a Cmd, since finding out may start a process.
	Version                          string
	SandboxInfo, SubagentSandboxInfo func() string
	// Types are the sub-agent types /agents lists, TypeWarnings the
	// problems found loading agent files, and ModelOf which model a
	// type's children run on and why (nil: as written).
	Types        []agenttypes.Type
	TypeWarnings []string
	ModelOf      func(agenttypes.Type) (model, why string)
	// Models lists the endpoint's models for the /model picker (ready
	// is false while loading); CheckModel says what is wrong with a
	// name. Neither blocks; nil knows nothing.
	Models     func() (models []modelpick.Model, ready bool)
	CheckModel func(name string) string
	// SaveRules writes the rules /permissions save keeps and returns the
	// file written; nil when there is no user config.
	SaveRules func([]event.PermissionRule) (string, error)
	// Copy puts text on the clipboard (/copy); it writes to the
	// terminal, so it is called from a Cmd.
	Copy func(text string) error
	// Custom are the custom commands from command folders, sorted by
	// name; a built-in wins a name they share.
	Custom []agenttypes.Command
	// MCPPrompts are the connected MCP servers' prompts, each the
	// command /mcp__SERVER__PROMPT; it never blocks (a snapshot); nil
	// knows none.
	MCPPrompts func() []event.MCPPrompt
	// Sessions lists this folder's recorded sessions, most recently
	// active first (/resume), from a Cmd; SessionID is the running one's
	// id; Resume is the Cmd that switches to session id, which the root
	// then runs on. Nil when sessions are not recorded.
	Sessions  func() ([]transcript.Summary, error)
	SessionID string
	Resume    func(id string) tea.Cmd
	// Trust records the folder as trusted, as baton trust does, and says
	// what that means (/trust); called from a Cmd; nil without a trust
	// list.
	Trust func() (string, error)
}

// Env is what a command runs and completes with: the parts of the UI it
// acts through and what it knows, set once, and the moment's state,
// which the root gives each run.
type Env struct {
	Session Session
	Status  *status.Model
	Agents  *agents.Area
	Layers  *overlay.Stack
	Styles  *themes.Styles
	Options Options
	// Answers are the main agent's answers so far, oldest first (/copy);
	// Keys every key grouped by where it applies (/help).
	Answers func() []string
	Keys    func() []overlay.KeyGroup

	// Busy says a turn (or a /compact) holds the input; Model is the
	// main agent's model now.
	Busy  bool
	Model string

	registry *Registry
}

// Result is a command's one message to the root, for what only the root
// can do. Its parts are applied in this order: the theme and model
// switch, a cleared conversation, the output, the prompt, what is said,
// and quitting last.
type Result struct {
	// Theme names a palette to switch to; Model a model.
	Theme, Model string
	// Cleared says the session started a new conversation.
	Cleared bool
	// Note is text for the conversation; Block is output drawn at the
	// width it is shown at (a table, a child's log).
	Note  string
	Block Block
	// Submit is a prompt sent as if typed; while a turn runs it is queued
	// instead, and Queued names what was queued ("/init").
	Submit, Queued string
	// Say goes on the status line at Level (not said when Submit is
	// queued: the queue says so).
	Say   string
	Level status.Level
	// Quit leaves baton: at once, or, while sub-agents run, after asking
	// what becomes of them.
	Quit bool
}

// Block is output a command puts into the conversation, drawn at the
// width it is shown at; draw draws an entry of a conversation the way
// the conversation draws its own.
type Block interface {
	Lines(styles *themes.Styles, width int, draw func(e convo.Entry, width int) []string) []string
}

// Do is the Cmd that brings r back to the root.
func Do(r Result) tea.Cmd { return func() tea.Msg { return r } }
