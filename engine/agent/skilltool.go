package agent

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/seed-e4e525a6/baton/engine/skills"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// SkillToolName is the tool that loads a skill (Claude Code's Skill).
const SkillToolName = "skill"

// SkillTool loads one of st's skills into st: its instructions come back
// as the result, its folder becomes readable to the agent's file tools,
// and its allowed-tools narrow what runs without asking for the rest of
// the turn. Each agent with skills has its own.
func SkillTool(st *Skills) tools.Tool { return skillTool{st: st} }

// skillTool is SkillTool.
type skillTool struct{ st *Skills }

type skillArgs struct {
	Skill string `json:"skill"`
	// Name is OpenCode's spelling of the same argument.
	Name string `json:"name"`
	Args string `json:"args"`
}

// Name implements tools.Tool.
func (skillTool) Name() string { return SkillToolName }

// ReadOnly implements tools.Tool.
func (skillTool) ReadOnly() bool { return true }

// Description implements tools.Tool.
func (skillTool) Description() string {
	return "Load a skill listed under Skills in your instructions, by name, before doing the task it describes. " +
		"Returns the skill's instructions and the folder they refer to, which your file tools can then read."
}

// Schema implements tools.Tool.
func (skillTool) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{` +
		`"skill":{"type":"string","description":"the skill's name, as listed"},` +
		`"args":{"type":"string","description":"optional arguments for the skill"}},` +
		`"required":["skill"]}`)
}

// Title implements tools.Tool.
func (t skillTool) Title(args json.RawMessage) string {
	var a skillArgs
	if json.Unmarshal(args, &a) != nil {
		return t.Name()
	}
	return strings.TrimSpace(t.Name() + " " + cmp.Or(a.Skill, a.Name))
}

// Run implements tools.Tool: it loads the skill for the agent the tool
// belongs to.
func (t skillTool) Run(_ context.Context, args json.RawMessage) (tools.Result, error) {
	var a skillArgs
	if err := json.Unmarshal(args, &a); err != nil {
		return tools.Result{}, fmt.Errorf("skill: %w", err)
	}
	name := strings.TrimSpace(cmp.Or(a.Skill, a.Name))
	if name == "" {
		return tools.Result{}, fmt.Errorf("skill: name a skill; yours are: %s", skills.Names(t.st.list()))
	}
	sk, found := t.st.find(name)
	if !found {
		return tools.Result{}, fmt.Errorf("skill: no skill %q; yours are: %s", name, skills.Names(t.st.list()))
	}
	body, err := sk.Body()
	if err != nil {
		return tools.Result{}, err
	}
	t.st.activate(sk)
	return tools.Result{Output: SkillText(sk, body, a.Args), Summary: "loaded " + sk.Name}, nil
}

// SkillText is what a loaded skill puts into the conversation: where its
// files are, then its instructions, then the arguments it was given.
func SkillText(sk skills.Skill, body, args string) string {
	var b strings.Builder
	if sk.Dir != "" {
		fmt.Fprintf(&b, "Base directory for this skill: %s\n(its files are readable there; run its scripts with run_command)\n\n", sk.Dir)
	}
	b.WriteString(body)
	if args = strings.TrimSpace(args); args != "" {
		fmt.Fprintf(&b, "\n\nARGUMENTS: %s", args)
	}
	if sk.Allowed != nil {
		fmt.Fprintf(&b, "\n\nWhile this skill is active, only these run without asking: %s (and reading its folder); anything else asks the person first.",
			strings.Join(sk.AllowedTools, ", "))
	}
	return b.String()
}
