package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/seed-e4e525a6/baton/agenttypes/repofile"
)

// Sources says where Discover looks for the servers of Claude Code and
// OpenCode. An empty folder is skipped.
type Sources struct {
	// Workspace holds the project's .mcp.json and opencode.json(c).
	Workspace string
	// Home holds ~/.claude.json: user servers, and per-project ("local")
	// servers under projects[workspace].
	Home string
	// OpenCodeDir is OpenCode's user folder (~/.config/opencode).
	OpenCodeDir string
	// Env expands variables in the definitions (see EnvLookup).
	Env func(string) (string, bool)
}

// Layers are the servers found, by where they came from, lowest
// precedence first. Project servers travel with the repository.
type Layers struct {
	User     []Server
	Project  []Server
	Local    []Server
	Warnings []string
}

// ProjectFiles are the project files servers are read from, relative to
// the workspace, lowest precedence first.
var ProjectFiles = []string{"opencode.jsonc", "opencode.json", ".mcp.json"}

// Discover reads every source. It never fails: a file it cannot use is a
// warning and the rest still load.
func Discover(src Sources) Layers {
	var l Layers
	add := func(dst *[]Server, servers []Server, warnings []string, err error) {
		*dst = Merge(*dst, servers)
		l.Warnings = append(l.Warnings, warnings...)
		if err != nil {
			l.Warnings = append(l.Warnings, err.Error())
		}
	}
	if src.OpenCodeDir != "" {
		for _, name := range []string{"opencode.jsonc", "opencode.json"} {
			path := filepath.Join(src.OpenCodeDir, name)
			servers, warnings, err := parseFile(path, path, ParseOpenCode, src.Env, readUserFile)
			add(&l.User, servers, warnings, err)
		}
	}
	if src.Home != "" {
		user, local, warnings, err := claudeUserFile(filepath.Join(src.Home, ".claude.json"), src.Workspace, src.Env)
		add(&l.User, user, warnings, err)
		l.Local = local
	}
	if src.Workspace != "" {
		project := &projectFiles{dir: src.Workspace}
		for _, rel := range ProjectFiles {
			parse := ParseOpenCode
			if rel == ".mcp.json" {
				parse = ParseClaude
			}
			servers, warnings, err := parseFile(rel, rel, parse, src.Env, project.read)
			add(&l.Project, servers, warnings, err)
		}
	}
	for i := range l.Project {
		l.Project[i].Project = true
	}
	return l
}

// parser is ParseClaude or ParseOpenCode.
type parser func(data []byte, source string, env func(string) (string, bool)) ([]Server, []string, error)

// readUserFile reads a file of the person's own, capped.
func readUserFile(path string) ([]byte, error) { return readCapped(path, maxUserFile) }

// parseFile reads one file with read (a project file only inside the
// workspace), bounds its nesting and parses it; a missing file holds no
// servers.
func parseFile(path, source string, parse parser, env func(string) (string, bool), read func(string) ([]byte, error)) ([]Server, []string, error) {
	data, err := read(path)
	if errors.Is(err, errNoFile) {
		return nil, nil, nil
	}
	if err == nil {
		err = repofile.CheckNesting(source, data, repofile.JSON)
	}
	if skip, ok := errors.AsType[*repofile.SkipError](err); ok {
		err = errors.New(skip.Reason)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w; its MCP servers are not loaded", source, err)
	}
	return parse(data, source, env)
}

// claudeUserFile reads ~/.claude.json: its top-level mcpServers, and the
// ones Claude Code keeps for this workspace under projects.
func claudeUserFile(path, workspace string, env func(string) (string, bool)) (user, local []Server, warnings []string, err error) {
	data, err := readCapped(path, maxUserFile)
	if errors.Is(err, errNoFile) {
		return nil, nil, nil, nil
	}
	if err != nil {
		return nil, nil, nil, fmt.Errorf("~/.claude.json: %w; its MCP servers are not loaded", err)
	}
	var file struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
		Projects   map[string]struct {
			MCPServers map[string]json.RawMessage `json:"mcpServers"`
		} `json:"projects"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		return nil, nil, nil, fmt.Errorf("~/.claude.json: %w; its MCP servers are not loaded", jsonError(err))
	}
	user, warnings = claudeServers(file.MCPServers, "~/.claude.json", env)
	if p, ok := file.Projects[workspace]; ok {
		var more []string
		local, more = claudeServers(p.MCPServers, "~/.claude.json (this project)", env)
		warnings = append(warnings, more...)
	}
	return user, local, warnings, nil
}

// Merge layers server lists: a later definition of a name replaces an
// earlier one in place, so the order servers were first named is kept.
func Merge(layers ...[]Server) []Server {
	var out []Server
	for _, layer := range layers {
		for _, s := range layer {
			if i := slices.IndexFunc(out, func(o Server) bool { return o.Name == s.Name }); i >= 0 {
				out[i] = s
			} else {
				out = append(out, s)
			}
		}
	}
	return out
}
