// Package process places a child in a baton child process of its own:
// the parent side is Runner, the child side Serve, behind the hidden
// subcommand (baton __child <id>) that Main dispatches.
//
// The protocol is JSON lines. Baton writes to the child's stdin: first
// its spec (everything the loop needs; the API key travels only here,
// never in the child's arguments or environment, where its commands
// could read it), then replies to its questions, ready notes for its
// caller-tool calls, controls (steer, tell) and at most one abort with
// its cause (stopped, session_ended, timed_out, cancelled). The child
// writes to its stdout its events, the messages added to its history,
// its questions (authorize a tool call; run a tool that stays with baton,
// such as an MCP tool or task; hold a file for a write; run the hooks at
// a point of its loop), the files it gives back, the skills it loads, the
// go of a caller-tool batch, and last its result; then it exits.
//
// Baton trusts the child's process no further than the protocol: it
// takes only the event kinds a loop emits and only about the child,
// decides every tool call by its own knowledge of the tool and its own
// policy, and holds files in its own lock table. A child that breaks the
// protocol, dies, or does not report within a grace after an abort is
// killed; its sub-agent ends failed with what it had reported, and its
// commands' sandbox supervisors, which came to baton, are ended and
// reaped (sandbox.Sweep).
//
// A child process of a recorded session is detachable (home.go, relay.go,
// attach.go): it runs in a session of its own without a death signal,
// numbers and logs every line it sends in its Home, and, when baton goes,
// carries on within its time limit, its questions waiting. A later baton
// attaches on the child's abstract socket with the token from its Home,
// is replayed what no baton took and asked the open questions again; a
// child that ended meanwhile is read from its log. Without a recorded
// session a child process dies with baton.
package process
