// Package child is baton's unit of work: a sub-agent started by a task
// call, with one record (Child) and one life (prepare, ask, queue, run,
// finish), placed by a Runner.
//
// The contract, the same for every runner:
//
//   - Spec in, resolved once where the task call is read: type, prompt,
//     tools (built-in ones as a Toolbox, which any process builds alike,
//     and those that stay with the session), model and why, limits,
//     worktree, sandbox policy, depth, caller and runner. Nothing later
//     reads the task arguments again.
//   - Events out, in the engine/event vocabulary and tagged with the
//     child's identity, through the job's Link; questions (tool
//     approvals) out through the same Link, answered on the session's
//     one approval queue.
//   - Result out through the Handle: a status for every ending, the
//     final text, partial work on failure, usage, and for a child in a
//     worktree its change, read by the session and reviewed the same way
//     whatever the runner.
//   - Controls in through the Handle (steer, tell); stopping is
//     cancelling the context the runner was started with, whose cause
//     says why.
//
// What a child needs of its session is the small Session interface
// (emit, record, the goroutine it runs on, delivery of background
// results) and the permission policy, never the session itself; the
// agent a task call acts for is an explicit agent.Caller, not a context
// value.
package child
