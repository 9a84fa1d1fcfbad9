package agenttypes

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/seed-e4e525a6/baton/agenttypes/jsonc"
	"github.com/seed-e4e525a6/baton/agenttypes/repofile"
)

// OpenCodeConfigNames are the names of OpenCode's config file, in the
// order OpenCode prefers them, in a project folder and in OpenCode's
// user folder.
var OpenCodeConfigNames = []string{"opencode.jsonc", "opencode.json"}

// maxOpenCodeConfig bounds an opencode.json; a real one is a few KiB.
const maxOpenCodeConfig = 1 << 20

// OpenCodeConfig is what baton takes from an opencode.json: its
// top-level permission, as standing rules in baton's names, and its agent
// blocks, as agent types read the way OpenCode reads its agent files;
// each with the warnings of its part.
type OpenCodeConfig struct {
	Permission         Rules
	PermissionWarnings []Warning
	Agents             []Type
	AgentWarnings      []Warning
}

// ReadOpenCodeConfig reads the opencode.json at path: only a regular file
// (inside root when root is set), capped before it is parsed. A missing
// file is an empty config; one that cannot be used is an error that is a
// Warning.
func ReadOpenCodeConfig(root, path string, known []string) (OpenCodeConfig, error) {
	if known == nil {
		known = AllTools
	}
	return readOpenCodeConfig(root, path, newToolSet(known))
}

func readOpenCodeConfig(root, path string, known toolSet) (OpenCodeConfig, error) {
	f, err := repofile.Read(root, path, maxOpenCodeConfig)
	if err == nil && !f.Cut {
		err = repofile.CheckNesting(path, jsonc.Strip(f.Data), repofile.JSON)
	}
	var skip *repofile.SkipError
	switch {
	case errors.As(err, &skip):
		return OpenCodeConfig{}, Warning{File: path, Message: "skipped: " + skip.Reason}
	case errors.Is(err, fs.ErrNotExist):
		return OpenCodeConfig{}, nil
	case err != nil:
		return OpenCodeConfig{}, Warning{File: path, Message: "skipped: " + unwrapPath(err).Error()}
	case f.Cut:
		return OpenCodeConfig{}, Warning{File: path, Message: fmt.Sprintf("skipped: larger than %d KiB", maxOpenCodeConfig>>10)}
	}
	return parseOpenCodeConfig(root, path, f.Data, known)
}

// parseOpenCodeConfig reads the JSON (comments and trailing commas
// allowed, as OpenCode allows them) through the YAML reader the agent
// files use, so a block's fields are read by the same handlers as a
// file's header.
func parseOpenCodeConfig(root, path string, data []byte, known toolSet) (OpenCodeConfig, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(jsonc.Strip(data), &doc); err != nil {
		return OpenCodeConfig{}, Warning{File: path, Message: "skipped: not JSON: " + err.Error()}
	}
	unshift(&doc)
	top := deref(&doc)
	if top.Kind == yaml.DocumentNode && len(top.Content) == 1 {
		top = deref(top.Content[0])
	}
	if top.Kind != yaml.MappingNode {
		return OpenCodeConfig{}, Warning{File: path, Message: "skipped: not a JSON object"}
	}
	var cfg OpenCodeConfig
	for i := 0; i+1 < len(top.Content); i += 2 {
		key, _ := scalar(top.Content[i])
		value := top.Content[i+1]
		switch key {
		case "permission":
			p := &fileParser{path: path, known: known, opts: fileOptions{known: known, openCode: true}}
			var t Type
			_ = applyPermission(p, &t, entry{key: key, norm: key, value: value, line: lineOf(top.Content[i])})
			cfg.Permission, cfg.PermissionWarnings = t.Permissions, p.warnings
		case "agent":
			cfg.Agents, cfg.AgentWarnings = openCodeAgents(root, path, deref(value), known)
		}
	}
	return cfg, nil
}

// openCodeAgents reads the agent blocks: the key is the name, prompt the
// system prompt ({file:./prompt.md} names a file beside the config), the
// other fields those of an agent file.
func openCodeAgents(root, path string, block *yaml.Node, known toolSet) ([]Type, []Warning) {
	if block.Kind != yaml.MappingNode {
		return nil, []Warning{{File: path, Line: lineOf(block), Message: "agent must be an object of agents; ignored"}}
	}
	var (
		types []Type
		warns []Warning
	)
	for i := 0; i+1 < len(block.Content); i += 2 {
		name, _ := scalar(block.Content[i])
		fields := deref(block.Content[i+1])
		where := fmt.Sprintf("%s (agent %s)", path, name)
		if fields.Kind != yaml.MappingNode {
			warns = append(warns, Warning{File: where, Line: lineOf(fields), Message: "skipped: an agent must be an object"})
			continue
		}
		fm := frontmatter{fields: &yaml.Node{Kind: yaml.MappingNode}, bodyLine: lineOf(fields)}
		for j := 0; j+1 < len(fields.Content); j += 2 {
			key, _ := scalar(fields.Content[j])
			if key != "prompt" {
				fm.fields.Content = append(fm.fields.Content, fields.Content[j], fields.Content[j+1])
				continue
			}
			body, err := openCodePrompt(root, path, deref(fields.Content[j+1]))
			if err != nil {
				warns = append(warns, Warning{File: where, Line: lineOf(fields.Content[j]), Message: err.Error()})
			}
			fm.body, fm.bodyLine = body, lineOf(fields.Content[j])
		}
		t, ws, err := parseFields(where, fm, fileOptions{known: known, name: name, openCode: true})
		warns = append(warns, ws...)
		if err != nil {
			warns = append(warns, asWarning(where, err))
			continue
		}
		types = append(types, t)
	}
	return types, warns
}

// openCodePrompt is an agent block's prompt: the text, or the file a
// "{file:PATH}" names, relative to the config's folder and read as every
// file a repository hands baton is read.
func openCodePrompt(root, path string, n *yaml.Node) (string, error) {
	text, ok := scalar(n)
	if !ok {
		return "", errors.New("prompt must be text; ignored")
	}
	ref, isFile := strings.CutPrefix(strings.TrimSpace(text), "{file:")
	if !isFile || !strings.HasSuffix(ref, "}") {
		return text, nil
	}
	ref = strings.TrimSuffix(ref, "}")
	file := ref
	if !filepath.IsAbs(file) {
		file = filepath.Join(filepath.Dir(path), file)
	}
	f, err := repofile.Read(root, file, maxFileSize)
	var skip *repofile.SkipError
	switch {
	case errors.As(err, &skip):
		return "", fmt.Errorf("prompt {file:%s}: %s; not read", ref, skip.Reason)
	case err != nil:
		return "", fmt.Errorf("prompt {file:%s}: %v", ref, unwrapPath(err))
	case f.Cut:
		return "", fmt.Errorf("prompt {file:%s}: larger than %d KiB; not read", ref, maxFileSize>>10)
	}
	return string(f.Data), nil
}

// unshift puts a JSON document's nodes on their own lines: lineOf adds
// the line a header's "---" takes, which a JSON file does not have.
func unshift(n *yaml.Node) {
	n.Line -= headerOffset
	for _, c := range n.Content {
		unshift(c)
	}
}
