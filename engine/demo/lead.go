package demo

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/seed-e4e525a6/baton/engine/llm"
)

// delegation is one task call of the main agent's plan.
type delegation struct {
	// types are the agent types to ask for, the first one offered wins;
	// with none offered the child is a temporary agent from instructions.
	types       []string
	description string
	// job opens the child's prompt; its words pick the child's plan.
	job    string
	report string
}

// delegations are the three read-only children every prompt gets.
var delegations = []delegation{
	{types: []string{"explore"}, description: "map the project layout",
		job:    "Map the project layout: list the top-level folders and files and say what kind of project this is.",
		report: "Report the folders, the notable files and the kind of project, with paths."},
	{types: []string{"explore"}, description: "find entry points",
		job:    "Find the entry points: the main packages and entry files (main.go, main.py, index.ts …) and the functions programs start in.",
		report: "Report each entry point as path:line."},
	{types: []string{"review", "explore"}, description: "look for TODOs",
		job:    "Look for TODO and FIXME notes, and skim the README.",
		report: "Report the notes as path:line and quote the README's opening lines."},
}

// customInstructions make a temporary read-only agent when the engine
// offers none of the wanted types.
const customInstructions = "You are a read-only helper: use only read_file, list_files, find_files and grep, then report what you found."

// demoNote closes every summary: what the person just watched and how to
// connect a real model.
const demoNote = "_This was baton's offline demo: a scripted model that ran real tools on this folder (writing only what you approved). " +
	"To connect a real model, set `OPENAI_API_KEY` (and optionally `OPENAI_BASE_URL`, `BATON_MODEL`), then run `make run` again._"

// lead answers the main agent: a new prompt gets three parallel
// delegations; the results of those get a summary.
func lead(c *conversation) reply {
	last := c.lastUser()
	asked := ""
	if last >= 0 {
		asked = clip(llm.MessageText(c.messages[last]), 200)
	}
	if results := c.exchangesAfter(last); len(results) > 0 {
		return reply{text: summary(asked, results)}
	}
	return delegate(c, asked)
}

// delegate sends every delegation in one message, so they run in parallel.
func delegate(c *conversation, asked string) reply {
	offered := offeredTypes(c.tools[taskTool])
	turn := len(c.userTexts())
	var calls []toolCall
	plan := delegations
	change := wantsChange(asked) && firstOffered(changeDelegation.types, offered) != ""
	if change {
		plan = append(slices.Clip(plan), changeDelegation)
	}
	for i, d := range plan {
		args := map[string]any{"description": d.description, "prompt": d.prompt(asked)}
		if typ := firstOffered(d.types, offered); typ != "" {
			args["subagent_type"] = typ
		} else {
			args["instructions"] = customInstructions
		}
		b, err := json.Marshal(args)
		if err != nil {
			continue
		}
		calls = append(calls, toolCall{id: fmt.Sprintf("call_demo_task_%d_%d", turn, i), name: taskTool, args: string(b)})
	}
	text := "I'll split this into three read-only sub-agents working in parallel: one maps the project layout, " +
		"one finds the entry points, and one looks for TODOs and skims the README. Then I'll sum up what they found."
	if change {
		text += " You asked for a change, so a fourth, general-purpose sub-agent proposes it as an edit: its write card shows the diff for you to approve or deny."
	}
	if asked != "" {
		text = fmt.Sprintf("You asked: %q.\n\n%s", asked, text)
	}
	return reply{text: text, calls: calls}
}

// prompt is the child's full prompt: it starts with no memory of the
// conversation, so the person's question travels with the job.
func (d delegation) prompt(asked string) string {
	p := d.job + "\n\n"
	if asked != "" {
		p += fmt.Sprintf("The person asked: %q. ", asked)
	}
	return p + d.report + " Use only read-only tools."
}

// offeredTypes reads the agent type names the task tool's description
// lists as "- name: description" lines.
func offeredTypes(description string) []string {
	var out []string
	for _, line := range strings.Split(description, "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), "- ")
		if !ok {
			continue
		}
		if name, _, ok := strings.Cut(rest, ":"); ok && !strings.ContainsAny(name, " \t") {
			out = append(out, name)
		}
	}
	return out
}

// firstOffered returns the first wanted type that is offered, or "".
func firstOffered(wanted, offered []string) string {
	for _, w := range wanted {
		if slices.Contains(offered, w) {
			return w
		}
	}
	return ""
}
