// Package sandbox runs the commands a model asks for inside a kernel
// sandbox: on Linux, Landlock confines writes to the workspace, the temp
// folder and the commands' own build caches, hides the person's home
// folder but for what builds need, and the credentials wherever they are;
// no Unix socket outside the workspace is reachable, and sub-agents get
// no network. Every command runs in its own session, without a
// controlling terminal, in PID and mount namespaces of its own whose
// /proc shows no process outside its tree (where the kernel allows),
// under a supervisor that holds what must not change (see
// Policy.Protected) and kills every process it started when it ends,
// setsid ones included.
//
// baton never restricts itself: it re-executes its own binary as the
// supervisor, the namespaces' init, which re-executes it once more to
// apply Landlock and exec the shell. A program that runs commands must call Main first thing in
// main (tests: in TestMain), or Run refuses to start them.
package sandbox

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// ErrNotInstalled is returned by Run in a program that never called Main.
var ErrNotInstalled = errors.New("sandbox: the launcher is not installed (sandbox.Main must run first in main)")

// Mode says how far commands are confined.
type Mode string

// The modes of the [sandbox] mode key.
const (
	// WorkspaceWrite lets commands write the workspace, the temp folder,
	// build caches and the configured writable paths.
	WorkspaceWrite Mode = "workspace-write"
	// ReadOnly lets commands write only the temp folder.
	ReadOnly Mode = "read-only"
	// Off runs commands unconfined; only the person can choose it.
	Off Mode = "off"
)

// ParseMode reads a [sandbox] mode value.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(s); m {
	case WorkspaceWrite, ReadOnly, Off:
		return m, nil
	}
	return "", fmt.Errorf("expected %q, %q or %q, got %q", WorkspaceWrite, ReadOnly, Off, s)
}

// Narrower reports whether m confines at least as much as other: a
// project may move the mode this way, never the other.
func (m Mode) Narrower(other Mode) bool {
	rank := map[Mode]int{Off: 0, WorkspaceWrite: 1, ReadOnly: 2}
	return rank[m] >= rank[other]
}

// Policy is what one agent's commands may do. Paths are absolute.
type Policy struct {
	Mode      Mode   `json:"mode"`
	Workspace string `json:"workspace"`
	// Writable are written as well as read: the temp folder and the
	// commands' own caches; only the temp folder in ReadOnly mode.
	// Hidden paths inside them stay hidden.
	Writable []string `json:"writable"`
	// ExtraWritable and ExtraReadable are what the person named in
	// [sandbox] writable and readable, granted as given.
	ExtraWritable []string `json:"extra_writable"`
	ExtraReadable []string `json:"extra_readable"`
	// Hidden are never readable or writable (credentials, baton's own
	// config and transcripts); everything else is readable but the home
	// folder.
	Hidden []string `json:"hidden"`
	// Home is the person's home folder: hidden but for HomeReadable, the
	// way to the workspace and its neighbours, and the granted paths.
	// "" hides nothing there beyond Hidden.
	Home         string   `json:"home"`
	HomeReadable []string `json:"home_readable"`
	// AllowSockets are the Unix sockets outside the workspace commands
	// may connect to ([sandbox] allow_sockets); every other one is out of
	// reach.
	AllowSockets []string `json:"allow_sockets"`
	// Protected are files and folders commands may read but not change,
	// Pinned are folders they may change inside but not move, remove or
	// replace: what git and baton run or trust later outside the sandbox.
	// Where commands get a mount namespace of their own, the kernel holds
	// them; run_command checks them after every command everywhere.
	Protected []string `json:"protected"`
	Pinned    []string `json:"pinned"`
	// Caches is the folder of the commands' own build caches: the cache
	// variables point there and the person's caches are only read, so
	// nothing a command writes there is run later outside the sandbox.
	Caches string `json:"caches"`
	// PersonCaches are the person's caches commands read from.
	PersonCaches PersonCaches `json:"person_caches"`
	// Network allows TCP, UDP and other network sockets for commands.
	Network bool `json:"network"`
	// Reason says why Mode is Off ("--no-sandbox", "mode = off in …").
	Reason string `json:"-"`
}

// WithNetwork returns p with the network allowed or not.
func (p Policy) WithNetwork(on bool) Policy {
	p.Network = on
	p.Writable, p.Hidden, p.HomeReadable = slices.Clone(p.Writable), slices.Clone(p.Hidden), slices.Clone(p.HomeReadable)
	p.ExtraWritable, p.ExtraReadable = slices.Clone(p.ExtraWritable), slices.Clone(p.ExtraReadable)
	p.AllowSockets, p.Protected, p.Pinned = slices.Clone(p.AllowSockets), slices.Clone(p.Protected), slices.Clone(p.Pinned)
	return p
}

// Label is the one-word state for machine-readable output: the mode, or
// "unavailable" where the kernel cannot sandbox.
func (p Policy) Label() string {
	if p.Mode == "" {
		return string(Off)
	}
	if p.Mode != Off && !Available() {
		return "unavailable"
	}
	return string(p.Mode)
}

// Describe says in a line what commands run under, for headers, cards
// and /subagents info, and what the kernel cannot hold here.
func (p Policy) Describe() string {
	switch {
	case p.Mode == Off || p.Mode == "":
		reason := p.Reason
		if reason == "" {
			reason = "sandbox off"
		}
		return "off (" + reason + "): commands run unsandboxed"
	case !Available():
		return "unavailable (" + Unavailable() + "): commands run unsandboxed"
	}
	parts := []string{string(p.Mode)}
	if p.Network {
		parts = append(parts, "network on")
	} else {
		parts = append(parts, "network off")
		if note := networkNote(); note != "" {
			parts[len(parts)-1] += " (" + note + ")"
		}
	}
	if note := p.socketNote(); note != "" {
		parts = append(parts, note)
	}
	if !Isolated() {
		parts = append(parts, "other processes visible")
	}
	return strings.Join(parts, " · ")
}
