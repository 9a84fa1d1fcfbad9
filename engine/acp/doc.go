// Package acp is baton as an agent of the Agent Client Protocol: the
// JSON-RPC 2.0 protocol, newline-delimited on stdio, by which editors
// (Zed, JetBrains IDEs, Neovim plugins) run coding agents.
//
// Each of the client's sessions is a baton session (engine.Session),
// started by the program around the server from the config of the
// client's folder. Its events become session/update notifications, in
// order, from one goroutine: the main agent's text and thoughts as
// message chunks, its tool calls as tool calls with their status, edits
// as diffs, its task list as a plan, and each sub-agent as one tool call
// whose content is the child's progress line and, at the end, its
// summary. Every approval baton would show as a card becomes a
// session/request_permission. Files are read and written through the
// client's buffers and commands run in its terminals when it offers them
// (see tools.Editor); baton's sessions can be loaded again, replayed as
// updates.
package acp
