package tools

import (
	"context"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// CallRef names the tool call a tool runs for: the agent making it and
// the call's id, which is unique only within that agent's conversation.
// An editor's terminal reads it to show the command under its call.
type CallRef struct {
	Agent event.AgentID
	ID    string
}

// callRefKey keys the CallRef in a context.
type callRefKey struct{}

// WithCallRef tells the tool, and what it calls, which call it runs for.
func WithCallRef(ctx context.Context, ref CallRef) context.Context {
	return context.WithValue(ctx, callRefKey{}, ref)
}

// CallRefOf returns the call a tool runs for, if the executor said.
func CallRefOf(ctx context.Context) (CallRef, bool) {
	ref, ok := ctx.Value(callRefKey{}).(CallRef)
	return ref, ok
}
