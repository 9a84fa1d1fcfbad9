package engine

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/seed-e4e525a6/baton/engine/skills"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// SkillToolName is the tool that loads a skill (Claude Code's Skill).
const SkillToolName = "skill"

// skillTool loads one of the calling agent's skills: its instructions
// come back as the result, its folder becomes readable to the agent's
// file tools, and its allowed-tools narrow what runs without asking for
// the rest of the turn.
type skillTool struct{}

type skillArgs struct {
	Skill string `json:"skill"`
	// Name is OpenCode's spelling of the same argument.
	Name string `json:"name"`
	Args string `json:"args"`
}

func (skillTool) Name() string   { return SkillToolName }
func (skillTool) ReadOnly() bool { return true }

func (skillTool) Description() string {
	return "Load a skill listed under Skills in your instructions, by name, before doing the task it describes. " +
		"Returns the skill's instructions and the folder they refer to, which your file tools can then read."
}

func (skillTool) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{` +
		`"skill":{"type":"string","description":"the skill's name, as listed"},` +
		`"args":{"type":"string","description":"optional arguments for the skill"}},` +
		`"required":["skill"]}`)
}

func (t skillTool) Title(args json.RawMessage) string {
	var a skillArgs
	if json.Unmarshal(args, &a) != nil {
		return t.Name()
	}
	return strings.TrimSpace(t.Name() + " " + cmp.Or(a.Skill, a.Name))
}

// Run loads the skill for the agent whose call this is.
func (t skillTool) Run(ctx context.Context, args json.RawMessage) (tools.Result, error) {
	var a skillArgs
	if err := json.Unmarshal(args, &a); err != nil {
		return tools.Result{}, fmt.Errorf("skill: %w", err)
	}
	name := strings.TrimSpace(cmp.Or(a.Skill, a.Name))
	call, ok := callOf(ctx)
	if !ok || call.agent == nil {
		return tools.Result{}, errors.New("skill: no agent to load it for")
	}
	st := call.agent.skills
	if name == "" {
		return tools.Result{}, fmt.Errorf("skill: name a skill; yours are: %s", skills.Names(st.list()))
	}
	sk, found := st.find(name)
	if !found {
		return tools.Result{}, fmt.Errorf("skill: no skill %q; yours are: %s", name, skills.Names(st.list()))
	}
	body, err := sk.Body()
	if err != nil {
		return tools.Result{}, err
	}
	st.activate(sk)
	return tools.Result{Output: skillText(sk, body, a.Args), Summary: "loaded " + sk.Name}, nil
}

// skillText is what a loaded skill puts into the conversation: where its
// files are, then its instructions, then the arguments it was given.
func skillText(sk skills.Skill, body, args string) string {
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

// list is the offered skills.
func (st *skillState) list() []skills.Skill {
	if st == nil {
		return nil
	}
	return st.offered
}
