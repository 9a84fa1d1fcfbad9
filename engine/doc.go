// Package engine is baton's agent runtime: the agent loop over an
// OpenAI-compatible streaming endpoint, tool execution with permissions,
// delegation to sub-agents through the task tool, and the session that
// ties them together and reports everything on one ordered event channel.
//
// The engine never imports bubbletea or lipgloss; the TUI and the headless
// printers are both plain consumers of Session.Events.
package engine
