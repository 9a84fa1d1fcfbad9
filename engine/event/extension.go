package event

import "time"

// HookStatus is one configured hook as /hooks shows it: what it runs on
// which event, where it was configured, and what it did last.
type HookStatus struct {
	Event   string `json:"event"`
	Matcher string `json:"matcher,omitempty"`
	Command string `json:"command"`
	Source  string `json:"source"`
	// Runs counts its runs this session; Last says how the last one
	// ended ("exit 0", "exit 2: blocked", "timed out after 60s; killed")
	// at LastAt, taking Took; Output is the start of what it printed,
	// unless it asked to keep that out of sight (suppressOutput).
	Runs   int           `json:"runs"`
	Last   string        `json:"last,omitempty"`
	LastAt time.Time     `json:"last_at,omitzero"`
	Took   time.Duration `json:"took,omitempty"`
	Output string        `json:"output,omitempty"`
}

// SkillStatus is one skill as /skills shows it.
type SkillStatus struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Source is the folder it came from (".claude/skills"), File its
	// SKILL.md.
	Source string `json:"source"`
	File   string `json:"file"`
	// Offered is false for a skill the model is not offered
	// (disable-model-invocation); Loads counts the times an agent loaded
	// it this session.
	Offered bool `json:"offered"`
	Loads   int  `json:"loads,omitempty"`
	// AllowedTools is its allowed-tools as written.
	AllowedTools []string `json:"allowed_tools,omitempty"`
	// Problem names what is wrong: a skill that could not be read
	// ("broken"), or one another of the same name hides.
	Problem string `json:"problem,omitempty"`
}
