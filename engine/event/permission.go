package event

// PermissionRule is one standing rule of a session, as /permissions lists
// it: "allow run_command(go test:*)" from the user config.
type PermissionRule struct {
	// Kind is "allow", "ask" or "deny".
	Kind string `json:"kind"`
	// Rule is the rule's text: a tool name, or a tool with a pattern.
	Rule string `json:"rule"`
	// Source says where it came from; the Source constants below.
	Source string `json:"source"`
}

// Where a rule came from. Only user-config and session rules are written
// back by /permissions save; the others belong to files the person did
// not ask baton to change.
const (
	SourceUser        = "user config"
	SourceProject     = "project config"
	SourceClaudeUser  = "~/.claude/settings.json"
	SourceClaudeLocal = ".claude/settings.json"
	SourceFlag        = "--allow"
	SourceSession     = "session"
)

// SourceClaudePersonal is the project's settings file Claude Code writes
// "always allow" answers into and keeps out of git.
const SourceClaudePersonal = ".claude/settings.local.json"
