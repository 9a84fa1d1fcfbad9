package tools

import (
	"os"
	"path/filepath"
	"slices"
)

// Git looks for .git from the folder it runs in upwards, so a `.git` a
// command leaves in a subfolder (a `gitdir:` file naming a directory it
// wrote) is the repository the person's next git command uses there; a
// submodule's `.git` file is read by every `git status` of the
// repository above. nestedGitEntries finds the .git entries below the
// workspace's top, so that each is guarded like the top one, and one that
// appears is taken away unless git would run nothing from it.

// maxNestedWalk bounds the folders looked into; skipNested are folders
// people do not run git in and that hold the most folders.
const maxNestedWalk = 10000

var skipNested = []string{"node_modules", ".git", "target", ".venv", "venv", "__pycache__", ".tox", ".mypy_cache", ".gradle", ".next"}

// nestedGitEntries lists the .git entries below root, in a walk of at
// most maxNestedWalk folders that does not follow links.
func nestedGitEntries(root string) []string {
	var out []string
	queue := []string{root}
	for seen := 0; len(queue) > 0 && seen < maxNestedWalk; seen++ {
		dir := queue[0]
		queue = queue[1:]
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			p := filepath.Join(dir, e.Name())
			switch {
			case e.Name() == ".git":
				if dir != root {
					out = append(out, p)
				}
			case e.IsDir() && !slices.Contains(skipNested, e.Name()):
				queue = append(queue, p)
			}
		}
	}
	return out
}
