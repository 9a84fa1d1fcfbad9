package event

import (
	"context"
	"sync"
	"time"
)

// ApprovalKind says what an approval request is about.
type ApprovalKind string

// The things that ask the person first.
const (
	// ApproveTool is a write_file, edit_file or run_command call.
	ApproveTool ApprovalKind = "tool"
	// ApproveDelegation is a task call about to start a child.
	ApproveDelegation ApprovalKind = "delegation"
	// ApproveMCPServer is an MCP server of a folder the person has not
	// trusted, about to start: Allow starts it this once, AllowAlways
	// trusts the folder (as `baton trust` does) and starts it, Deny
	// leaves it off. No model waits on the answer.
	ApproveMCPServer ApprovalKind = "mcp_server"
	// ApprovePlan is the main agent's plan, offered in plan mode for the
	// person to accept (Preview is the plan): Allow carries it out in
	// normal mode, AllowAlways in auto-accept mode, Deny keeps planning,
	// with the reason as what to change.
	ApprovePlan ApprovalKind = "plan"
)

// Decision is the person's answer to an approval request.
type Decision string

// The possible decisions.
const (
	// Allow approves this one request.
	Allow Decision = "allow"
	// AllowAlways approves it and remembers the choice for the session:
	// for a tool call, the rules in Answer.Rules (a command's prefix, a
	// file or its folder); for a delegation, the agent type.
	AllowAlways Decision = "allow_always"
	// Deny refuses it; the model is told, with the reason if given.
	Deny Decision = "deny"
)

// Answer is a decision plus what may come with it.
type Answer struct {
	Decision Decision `json:"decision"`
	// Reason is an optional explanation given with a denial.
	Reason string `json:"reason,omitempty"`
	// EditedPrompt, when set on an approved delegation, replaces the
	// child's task prompt.
	EditedPrompt string `json:"edited_prompt,omitempty"`
	// EditedLimits, when set on an approved delegation, replace the
	// child's step limit, timeout and budget: the person's to set.
	EditedLimits *Limits `json:"edited_limits,omitempty"`
	// Rules, with AllowAlways on a tool call, are the rules the person
	// chose among those the request offered (Always or AlwaysFolder).
	Rules []string `json:"rules,omitempty"`
}

// DelegationPreview is what the person sees before a child starts.
type DelegationPreview struct {
	AgentType   string   `json:"agent_type"`
	Description string   `json:"description"`
	Prompt      string   `json:"prompt"`
	Tools       []string `json:"tools"`
	// DroppedTools are tools the agent's file names that baton lacks; the
	// child runs without them.
	DroppedTools []string `json:"dropped_tools,omitempty"`
	// Withheld says which tools an OpenCode agent relied on by OpenCode's
	// default that the child does not get, and how to grant them.
	Withheld string `json:"withheld,omitempty"`
	Model    string `json:"model"`
	// ModelWhy says why Model is not the model the agent's file or the
	// task call named ("the endpoint does not serve sonnet; …").
	ModelWhy string        `json:"model_why,omitempty"`
	MaxSteps int           `json:"max_steps"`
	Timeout  time.Duration `json:"timeout"`
	// Budget bounds its tokens and cost.
	Budget          Budget  `json:"budget"`
	EstimatedTokens int     `json:"estimated_tokens"`
	EstimatedCost   float64 `json:"estimated_cost"`
	CostKnown       bool    `json:"cost_known"`
	// Isolation is IsolationWorktree or IsolationShared; From says what a
	// worktree starts from ("main@1a2b3c4 + uncommitted changes") and
	// IsolationNote why a worktree was refused.
	Isolation string `json:"isolation,omitempty"`
	// Runs says where the child will run ("local", "process",
	// "container <image>").
	Runs          string `json:"runs,omitempty"`
	From          string `json:"from,omitempty"`
	IsolationNote string `json:"isolation_note,omitempty"`
	// Verify are the commands run on a worktree child's change in its
	// worktree when it finishes, shown in full: approving the card
	// approves running them.
	Verify []string `json:"verify,omitempty"`
	// Continues is the finished child a follow-up continues ("explore-3"),
	// whose history the new child starts from.
	Continues AgentID `json:"continues,omitempty"`
	// Inherits are the main agent's standing allow rules the child gets
	// if the person approves; without them the child asks on its own
	// cards.
	Inherits []string `json:"inherits,omitempty"`
	// Rules are the child's own rules from its agent file, written
	// "kind rule" ("allow run_command(git diff:*)").
	Rules []string `json:"rules,omitempty"`
	// Background says the task call returns at once and the child runs
	// on while the parent goes on; its result arrives when it ends.
	Background bool `json:"background,omitempty"`
	// ACPAgent is, for a child of an acp-runner type, the program it runs
	// and the names its agent file sets in its environment (not their
	// values), shown in full: approving the card approves running it.
	ACPAgent string `json:"acp_agent,omitempty"`
}

// ServerPreview is what the person sees before an MCP server of an
// untrusted folder starts.
type ServerPreview struct {
	Name string `json:"name"`
	// Command is exactly what would run (or the URL it would reach),
	// every byte of it.
	Command string `json:"command"`
	// Source is the file that declares the server (".mcp.json").
	Source string `json:"source"`
	// CanTrust says the answer may trust the folder: baton knows where
	// to record it.
	CanTrust bool `json:"can_trust,omitempty"`
}

// ApprovalRequest is one pending question. Answer may be called from any
// goroutine, any number of times: the first answer wins. The zero value
// (plus its fields) is ready to use.
type ApprovalRequest struct {
	ID   string       `json:"id"`
	Kind ApprovalKind `json:"kind"`
	// CallID is the tool call asking: the call to run for ApproveTool, the
	// parent's task call for ApproveDelegation.
	CallID string `json:"call_id,omitempty"`
	// Tool and Args name the call for ApproveTool; Preview is exactly what
	// will run or change (the command line, or a unified diff).
	Tool    string `json:"tool,omitempty"`
	Args    string `json:"args,omitempty"`
	Preview string `json:"preview,omitempty"`
	// Always are the rules an "always" answer adds (a command's own
	// prefix, the file itself); AlwaysFolder the wider choice of a file
	// card (its folder). Empty when nothing narrower than the whole tool
	// fits, and then "always" is not offered.
	Always       []string `json:"always,omitempty"`
	AlwaysFolder []string `json:"always_folder,omitempty"`
	// AlwaysLabel and AlwaysFolderLabel say what those rules cover in a
	// card's words: "go test …" for a command prefix, the glob for files.
	AlwaysLabel       string `json:"always_label,omitempty"`
	AlwaysFolderLabel string `json:"always_folder_label,omitempty"`
	// Delegation is set for ApproveDelegation.
	Delegation *DelegationPreview `json:"delegation,omitempty"`
	// Worktree is the folder a worktree child's call works in, when it
	// is not the person's tree: what it writes lands there, pending
	// review, so the card must not read as a change to the person's files.
	Worktree string `json:"worktree,omitempty"`
	// Server is set for ApproveMCPServer.
	Server *ServerPreview `json:"server,omitempty"`

	makeReply sync.Once
	answered  sync.Once
	reply     chan Answer
}

// NewApprovalRequest makes a request of the given kind; the engine
// publishes it in an ApprovalRequested event.
func NewApprovalRequest(id string, kind ApprovalKind) *ApprovalRequest {
	return &ApprovalRequest{ID: id, Kind: kind}
}

// replies returns the reply channel, which holds one answer so answering
// never blocks.
func (r *ApprovalRequest) replies() chan Answer {
	r.makeReply.Do(func() { r.reply = make(chan Answer, 1) })
	return r.reply
}

// Answer delivers the decision. Later calls are ignored.
func (r *ApprovalRequest) Answer(a Answer) {
	r.answered.Do(func() { r.replies() <- a })
}

// Wait blocks until the request is answered or ctx ends; a cancelled wait
// counts as a denial.
func (r *ApprovalRequest) Wait(ctx context.Context) Answer {
	select {
	case a := <-r.replies():
		return a
	case <-ctx.Done():
		return Answer{Decision: Deny, Reason: "cancelled before an answer"}
	}
}
