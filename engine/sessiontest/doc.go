// Package sessiontest drives a baton session from a test: it submits a
// prompt and reads the session's events to the end of the main agent's
// turn, scripts a main agent that delegates against the SSE server of
// engine/llm/llmtest, tells a child's requests from its parent's, and
// makes the workspaces, repositories and transcript folders sessions
// run in. The engine's tests and the child's (engine/child) share it,
// so that a behaviour is tested in the package that owns it without a
// second copy of the harness.
//
// It does not import engine (whose own tests import it): a session is
// anything with Submit and Events.
package sessiontest
