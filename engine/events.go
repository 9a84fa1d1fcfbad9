package engine

import "github.com/seed-e4e525a6/baton/engine/event"

// The session's vocabulary lives in package event, which depends on the
// standard library only, so the UI can consume a session without the model
// client behind it. These aliases let engine code and its callers keep
// saying engine.TurnEnded or engine.StatusCompleted.

// Event types, re-exported from package event.
type (
	AgentBackgrounded   = event.AgentBackgrounded
	AgentFinished       = event.AgentFinished
	AgentID             = event.AgentID
	AgentMessage        = event.AgentMessage
	AgentQueued         = event.AgentQueued
	AgentStarted        = event.AgentStarted
	Change              = event.Change
	CompactionStarted   = event.CompactionStarted
	Compacted           = event.Compacted
	Answer              = event.Answer
	ApprovalKind        = event.ApprovalKind
	ApprovalRequest     = event.ApprovalRequest
	ApprovalRequested   = event.ApprovalRequested
	ApprovalResolved    = event.ApprovalResolved
	ConversationCleared = event.ConversationCleared
	Decision            = event.Decision
	DelegationPreview   = event.DelegationPreview
	ErrorOccurred       = event.ErrorOccurred
	Event               = event.Event
	MessageDone         = event.MessageDone
	Meta                = event.Meta
	Notice              = event.Notice
	PermissionRule      = event.PermissionRule
	ReasoningDelta      = event.ReasoningDelta
	ReviewFinished      = event.ReviewFinished
	ResultDelivered     = event.ResultDelivered
	ResultQueued        = event.ResultQueued
	Retrying            = event.Retrying
	Stats               = event.Stats
	Status              = event.Status
	StepStarted         = event.StepStarted
	TextDelta           = event.TextDelta
	Todo                = event.Todo
	TodosUpdated        = event.TodosUpdated
	ToolFinished        = event.ToolFinished
	ToolStarted         = event.ToolStarted
	TurnEnded           = event.TurnEnded
	TurnStarted         = event.TurnStarted
	UsageReported       = event.UsageReported
	Usage               = event.Usage
)

// Constants, re-exported from package event.
const (
	MainAgent         = event.MainAgent
	ApproveTool       = event.ApproveTool
	ApproveDelegation = event.ApproveDelegation
	Allow             = event.Allow
	AllowAlways       = event.AllowAlways
	Deny              = event.Deny
	StatusRunning     = event.StatusRunning
	StatusCompleted   = event.StatusCompleted
	StatusMaxSteps    = event.StatusMaxSteps
	StatusTimedOut    = event.StatusTimedOut
	StatusFailed      = event.StatusFailed
	StatusCancelled   = event.StatusCancelled
	StatusDenied      = event.StatusDenied
	StatusInterrupted = event.StatusInterrupted
)

// MarshalEvent encodes ev for stream-json output and transcripts.
func MarshalEvent(ev Event) ([]byte, error) { return event.MarshalEvent(ev) }

// UnmarshalEvent decodes what MarshalEvent wrote.
func UnmarshalEvent(data []byte) (Event, error) { return event.UnmarshalEvent(data) }
