package tools

import (
	"fmt"
	"strings"
	"sync"

	"github.com/seed-e4e525a6/baton/engine/sandbox"
)

// guards counts the commands running per workspace: the files are
// recorded when the first starts and checked when the last ends, so two
// commands at once never restore each other's view.
var guards = struct {
	sync.Mutex
	m map[string]*guardState
}{m: map[string]*guardState{}}

type guardState struct {
	running int
	surface surface
	before  []tree
}

// maxPutBackLines bounds the lines of the note to the model.
const maxPutBackLines = 12

// enterGuard records a workspace's protected files if no command runs
// there yet, and returns box with them added for the kernel to hold:
// the .git folder pinned, the files read-only, and git's folders
// readable to git inside the sandbox.
func enterGuard(root string, box sandbox.Policy) sandbox.Policy {
	guards.Lock()
	defer guards.Unlock()
	st := guards.m[root]
	if st == nil {
		st = &guardState{surface: surfaceOf(root, box)}
		for _, g := range st.surface.sets {
			st.before = append(st.before, g.record())
		}
		guards.m[root] = st
	}
	st.running++
	box = box.WithNetwork(box.Network)
	box.Pinned = append(box.Pinned, st.surface.pinned...)
	box.Protected = append(box.Protected, st.surface.protected...)
	box.HomeReadable = append(box.HomeReadable, st.surface.readable...)
	return box
}

// leaveGuard ends one command; the last one puts back what commands
// changed and returns a note for the model saying exactly what, "" when
// nothing changed.
func leaveGuard(root string) string {
	guards.Lock()
	defer guards.Unlock()
	st := guards.m[root]
	if st == nil {
		return ""
	}
	if st.running--; st.running > 0 {
		return ""
	}
	delete(guards.m, root)
	done := st.surface.restore(root, st.before)
	if len(done) == 0 {
		return ""
	}
	lines := make([]string, 0, min(len(done), maxPutBackLines)+1)
	failed := false
	for i, p := range done {
		failed = failed || p.err != nil
		if i < maxPutBackLines {
			lines = append(lines, "- "+p.describe(root))
		}
	}
	if len(done) > maxPutBackLines {
		lines = append(lines, fmt.Sprintf("- and %d more", len(done)-maxPutBackLines))
	}
	head := "baton put back what the command changed in files that git or baton run or trust outside the sandbox " +
		"(git's directory, config and hooks, what they point at, the project's agent settings, programs on the person's PATH):"
	tail := "Commands may not change them; ask the person to make such a change."
	if failed {
		tail = "Some could NOT be put back: tell the person, since git or baton may run what the command left there. " + tail
	}
	return head + "\n" + strings.Join(lines, "\n") + "\n" + tail
}
