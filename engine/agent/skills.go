package agent

import (
	"slices"
	"strings"
	"sync"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/rules"
	"github.com/seed-e4e525a6/baton/engine/skills"
)

// Skills is one agent's skills: those it may load, the folders of those
// it loaded (readable to its file tools from then on), and those active
// in its current turn, whose allowed-tools narrow what runs without
// asking. A nil Skills has none.
type Skills struct {
	offered []skills.Skill
	// loaded counts a load for /skills.
	loaded func(name string)

	mu     sync.Mutex
	dirs   []string
	active []skills.Skill
}

// NewSkills is the state of an agent offered these skills, with preload
// already loaded (an agent file's skills:); loaded is told of each load.
// Nil when there are none.
func NewSkills(offered, preload []skills.Skill, loaded func(string)) *Skills {
	if len(offered) == 0 && len(preload) == 0 {
		return nil
	}
	st := &Skills{offered: offered, loaded: loaded}
	for _, sk := range preload {
		st.activate(sk)
	}
	return st
}

// find returns the offered skill of that name.
func (st *Skills) find(name string) (skills.Skill, bool) {
	if st == nil {
		return skills.Skill{}, false
	}
	for _, sk := range st.offered {
		if strings.EqualFold(sk.Name, strings.TrimSpace(name)) {
			return sk, true
		}
	}
	return skills.Skill{}, false
}

// list is the offered skills.
func (st *Skills) list() []skills.Skill {
	if st == nil {
		return nil
	}
	return st.offered
}

// activate makes sk's folder readable and its allowed-tools binding.
func (st *Skills) activate(sk skills.Skill) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if sk.Dir != "" && !slices.Contains(st.dirs, sk.Dir) {
		st.dirs = append(st.dirs, sk.Dir)
	}
	if !slices.ContainsFunc(st.active, func(o skills.Skill) bool { return o.Name == sk.Name }) {
		st.active = append(st.active, sk)
	}
	if st.loaded != nil {
		st.loaded(sk.Name)
	}
}

// readable are the folders of the skills loaded so far.
func (st *Skills) readable() []string {
	if st == nil {
		return nil
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	return slices.Clone(st.dirs)
}

// narrowing is what the active skills let run without asking: the rules
// of their allowed-tools, and each one's folder for the reading tools;
// nil when no active skill has allowed-tools, which then narrows
// nothing. names are the skills that do, for messages.
func (st *Skills) narrowing() (allow []rules.Rule, names string) {
	if st == nil {
		return nil, ""
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	var with []string
	// Tools that change nothing but the conversation never ask.
	for _, tool := range agenttypes.ConversationTools {
		allow = append(allow, rules.Rule{Tool: tool})
	}
	for _, sk := range st.active {
		if sk.Allowed == nil {
			continue
		}
		with = append(with, sk.Name)
		allow = append(allow, sk.Allowed...)
		if sk.Dir != "" {
			for _, tool := range []string{"read_file", "list_files", "find_files", "grep"} {
				allow = append(allow, rules.FolderRule(tool, sk.Dir))
			}
		}
	}
	if len(with) == 0 {
		return nil, ""
	}
	return allow, strings.Join(with, ", ")
}

// endTurn ends the active skills with the turn.
func (st *Skills) endTurn() {
	if st == nil {
		return
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	st.active = nil
}
