// Package engine is baton's agent runtime as the front ends see it: the
// Session, which owns the main agent (package agent), its children
// (package child), the one permission policy (package permission), the
// transcripts, and the one ordered event channel that reports all of
// them.
//
// The engine never imports bubbletea or lipgloss; the TUI and the headless
// printers are both plain consumers of Session.Events.
package engine
