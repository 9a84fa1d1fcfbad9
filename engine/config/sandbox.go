package config

import (
	"path/filepath"
	"strings"

	"github.com/seed-e4e525a6/baton/engine/sandbox"
	"github.com/seed-e4e525a6/baton/engine/transcript"
)

// sandboxFile is the [sandbox] table: how commands are confined.
type sandboxFile struct {
	Mode         *sandboxMode `toml:"mode"`
	Writable     *pathList    `toml:"writable"`
	Readable     *pathList    `toml:"readable"`
	AllowSockets *pathList    `toml:"allow_sockets"`
	Network      *onOff       `toml:"network"`
}

// SandboxSettings are the merged [sandbox] table and --no-sandbox.
type SandboxSettings struct {
	Mode sandbox.Mode
	// Reason says who switched the sandbox off, for the header.
	Reason                           string
	Writable, Readable, AllowSockets []string
	// Network is "on", "off" or "" (main agent on, sub-agents off).
	Network string
}

// apply layers one file's [sandbox] table. A project may only narrow:
// its mode counts when it confines more, and checkProjectSandbox has
// already refused what would widen.
func (s *SandboxSettings) apply(f sandboxFile, from source) {
	if f.Mode != nil {
		mode := sandbox.Mode(*f.Mode)
		current := s.Mode
		if current == "" {
			current = sandbox.WorkspaceWrite
		}
		if from != fromProject || mode.Narrower(current) {
			s.Mode = mode
			if mode == sandbox.Off {
				s.Reason = `mode = "off" in the user config`
			}
		}
	}
	if f.Writable != nil {
		s.Writable = []string(*f.Writable)
	}
	if f.Readable != nil {
		s.Readable = []string(*f.Readable)
	}
	if f.AllowSockets != nil {
		s.AllowSockets = []string(*f.AllowSockets)
	}
	if f.Network != nil {
		s.Network = string(*f.Network)
	}
}

// refuseProjectSandbox removes the [sandbox] settings a repository must
// not choose: switching the sandbox off, granting paths or the network.
func refuseProjectSandbox(f *sandboxFile) []string {
	var out []string
	if f.Mode != nil && sandbox.Mode(*f.Mode) == sandbox.Off {
		f.Mode = nil
		out = append(out, `ignored sandbox.mode = "off": a repository must not unconfine its own commands (pass --no-sandbox or set it in your user config)`)
	}
	if f.Writable != nil {
		f.Writable = nil
		out = append(out, "ignored sandbox.writable: it widens what commands reach (set it in your user config)")
	}
	if f.Readable != nil {
		f.Readable = nil
		out = append(out, "ignored sandbox.readable: it widens what commands reach (set it in your user config)")
	}
	if f.AllowSockets != nil {
		f.AllowSockets = nil
		out = append(out, "ignored sandbox.allow_sockets: it widens what commands reach (set it in your user config)")
	}
	if f.Network != nil && *f.Network == "on" {
		f.Network = nil
		out = append(out, `ignored sandbox.network = "on": it widens what commands reach (set it in your user config)`)
	}
	return out
}

// Policy resolves the main agent's command sandbox: the person's
// settings, the defaults for the environment, and baton's own folders
// (config, transcripts) hidden with the credentials.
func (c SandboxSettings) Policy(env map[string]string, workspace string) sandbox.Policy {
	hidden := []string{}
	if dir := UserDir(env); dir != "" {
		hidden = append(hidden, dir)
	}
	if root, err := transcript.DefaultRoot(func(k string) string { return env[k] }); err == nil {
		hidden = append(hidden, filepath.Dir(root))
	}
	p := sandbox.Settings{
		Mode: c.Mode, Reason: c.Reason, Hidden: hidden, Env: env,
		Writable: expandHome(c.Writable, env["HOME"]), Readable: expandHome(c.Readable, env["HOME"]),
		AllowSockets: expandHome(c.AllowSockets, env["HOME"]),
	}.Policy(workspace)
	p.Network = c.Network != "off"
	return p
}

// expandHome turns ~/x into $HOME/x.
func expandHome(paths []string, home string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if rest, ok := strings.CutPrefix(p, "~/"); ok && home != "" {
			p = filepath.Join(home, rest)
		}
		out = append(out, p)
	}
	return out
}

// sandboxMode is a [sandbox] mode value.
type sandboxMode string

// UnmarshalTOML implements toml.Unmarshaler.
func (m *sandboxMode) UnmarshalTOML(v any) error {
	s, _ := v.(string)
	mode, err := sandbox.ParseMode(s)
	if err != nil {
		return valueError{`"workspace-write", "read-only" or "off"`, v}
	}
	*m = sandboxMode(mode)
	return nil
}

// pathList is a list of absolute paths, or paths under ~/.
type pathList []string

// UnmarshalTOML implements toml.Unmarshaler.
func (l *pathList) UnmarshalTOML(v any) error {
	items, ok := v.([]any)
	if !ok {
		return valueError{`a list of absolute paths or paths under "~/"`, v}
	}
	out := make(pathList, 0, len(items))
	for _, it := range items {
		s, ok := it.(string)
		if !ok || !(filepath.IsAbs(s) || strings.HasPrefix(s, "~/")) {
			return valueError{`a list of absolute paths or paths under "~/"`, v}
		}
		out = append(out, s)
	}
	*l = out
	return nil
}

// onOff is "on" or "off".
type onOff string

// UnmarshalTOML implements toml.Unmarshaler.
func (o *onOff) UnmarshalTOML(v any) error {
	s, ok := v.(string)
	if !ok || (s != "on" && s != "off") {
		return valueError{`"on" or "off"`, v}
	}
	*o = onOff(s)
	return nil
}
