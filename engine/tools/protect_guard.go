package tools

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
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
	sets    []guarded
	before  []tree
}

// enterGuard records a workspace's protected files if no command runs
// there yet.
func enterGuard(root string) {
	guards.Lock()
	defer guards.Unlock()
	st := guards.m[root]
	if st == nil {
		st = &guardState{sets: protectedOf(root)}
		for _, g := range st.sets {
			st.before = append(st.before, g.record())
		}
		guards.m[root] = st
	}
	st.running++
}

// leaveGuard ends one command; the last one restores what commands
// changed and returns a note for the model, "" when nothing changed.
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
	var changed []string
	for i, g := range st.sets {
		for _, name := range g.restore(st.before[i]) {
			changed = append(changed, filepath.Join(g.base, name))
		}
	}
	if len(changed) == 0 {
		return ""
	}
	if len(changed) > 5 {
		changed = append(changed[:5], fmt.Sprintf("and %d more", len(changed)-5))
	}
	return "baton restored what the command changed in git's configuration or hooks or in the project's agent settings (" +
		strings.Join(changed, ", ") + "): commands may not change them, since they run outside the sandbox; ask the person to make such a change"
}
