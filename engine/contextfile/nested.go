package contextfile

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Nested follows the AGENTS.md convention for sub-folders: the
// root file is in the system prompt, and the first time an agent touches a
// path below a folder with its own file, that file's instructions are
// added to the tool result. Each file is given once per agent.
type Nested struct {
	root  string
	limit int      // bytes taken of one file
	names []string // file names to look for, in order of preference

	mu   sync.Mutex
	seen map[string]bool
}

// NewNested looks for names (e.g. AGENTS.md, then CLAUDE.md) in the
// folders between root and the paths the agent touches.
func NewNested(root string, limit int, names ...string) *Nested {
	return &Nested{root: root, limit: limit, names: names, seen: map[string]bool{}}
}

// ForCall returns the instructions that apply to the call's path and were
// not given yet, or "", and notes on files cut or skipped for the person.
func (n *Nested) ForCall(args json.RawMessage) (text string, notes []string) {
	var a struct {
		Path string `json:"path"`
	}
	if n == nil || json.Unmarshal(args, &a) != nil || a.Path == "" {
		return "", nil
	}
	abs := a.Path
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(n.root, abs)
	}
	dir := abs
	if info, err := os.Stat(abs); err != nil || !info.IsDir() {
		dir = filepath.Dir(abs)
	}
	rel, err := filepath.Rel(n.root, dir)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return "", nil
	}
	var parts []string
	current := n.root
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		current = filepath.Join(current, part)
		text, more := n.take(current)
		if text != "" {
			parts = append(parts, text)
		}
		notes = append(notes, more...)
	}
	return strings.Join(parts, "\n\n"), notes
}

// take returns the context file of dir, once, and notes on any file of
// dir that was cut or skipped.
func (n *Nested) take(dir string) (string, []string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.seen[dir] {
		return "", nil
	}
	n.seen[dir] = true
	var notes []string
	for _, name := range n.names {
		text, note := Read(n.root, filepath.Join(dir, name), n.limit)
		if note != "" {
			notes = append(notes, note)
		}
		if text != "" {
			rel, _ := filepath.Rel(n.root, dir)
			return "[Instructions from " + filepath.ToSlash(filepath.Join(rel, name)) + "; they apply to files under " + filepath.ToSlash(rel) + "/]\n" + text, notes
		}
	}
	return "", notes
}
