// Package child is baton's unit of work: a sub-agent started by a task
// call, with one record (Child) and one life (prepare, ask, queue, run,
// finish), whose loop a Runner places.
//
// The contract, the same for every runner:
//
//   - Spec in (Job.Spec), resolved once where the task call is read:
//     identity, type, prompt and system prompt, tools (the built-in
//     ones as a Toolbox, data any process builds alike, and those that
//     stay with the session: MCP tools, and task when it may delegate),
//     model and why, step limit and timeout, workspace and worktree,
//     sandbox policy, own rules, skills, depth, caller and runner.
//     Nothing later reads the task arguments again.
//   - Events out (Link.Emit), in the engine/event vocabulary and about
//     the child itself, and its history (Link.Record), into the same
//     transcript whatever the runner.
//   - Questions out: a tool call's approval (Link.Authorize), decided by
//     the session's policy for this child and answered on the session's
//     one approval queue; the session's hooks (Link.Hooks).
//   - Result out (Handle.Ending): a status for every ending, the final
//     text, partial work when it failed, usage, its history for a
//     follow-up; a worktree child's change is read by the session and
//     reviewed the same way whatever the runner.
//   - Controls in (Handle.Control): steer (a message from the person)
//     and tell (a note before its next request). Abort is the context
//     the runner was started with: its cause (agent.ErrStopped,
//     agent.ErrSessionEnded, the deadline) becomes the child's status.
//
// A runner that loses its child (the process killed, its pipe broken,
// garbage on it) ends it failed with what it had reported; it never
// hangs its parent or siblings.
//
// Local runs the loop on a goroutine of baton's; engine/child/process
// runs it in a baton child process speaking the contract as JSON lines.
// The contract is data on purpose, so that later runners fit it as they
// are: a container or a cluster job runs the same child process with
// the workspace in and the change out through git; a budget is more
// limits in the spec and more endings; wind-down is one more control.
//
// A runner whose children can outlive baton implements Attacher, and its
// handles Detacher: baton quitting with d lets go of them (Detach), and
// --continue finds them again from their Home in the session's state
// (Reattach): a running one gets its pane and cards back, one that ended
// delivers its result. A child interrupted without that (a local one, or
// any when baton stopped it) keeps its transcript and worktree: Resume
// continues it there, Retry starts its task afresh.
//
// What a child needs of its session is the small Session interface
// (emit, record, the goroutine its life runs on, delivery of background
// results) and the permission policy, never the session itself; the
// agent a task call acts for is an explicit agent.Caller, not a context
// value.
package child
