// Package acpagent is the acp runner: it places a child in another agent
// that speaks the Agent Client Protocol (Gemini CLI, OpenCode, Claude
// Code through its adapter, another baton), with baton as that agent's
// client.
//
// One child is one agent process and one ACP session: initialize,
// session/new with the child's workspace (its worktree, or the person's
// tree) as cwd, then session/prompt with the task. What the agent streams
// (session/update) becomes the child's events, so its pane shows its
// text, thoughts, tool calls and plan; its session/request_permission
// becomes a question on the session's one queue, decided by the person's
// rules and cards like any child's call, a refusal answered with the
// reason; its fs/* requests are served inside the child's workspace
// through baton's path guards and rules; terminals are not offered. The
// last message it streamed is the child's result.
//
// The agent's key and config are its own: it starts with baton's
// environment cleaned of every credential (see Environ), plus what its
// agent file's acp.env sets. Everything it sends is bounded (message
// size, lines that are not JSON-RPC, how long it may take to start); a
// stop sends session/cancel and kills its process group after a grace.
package acpagent
