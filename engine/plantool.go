package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// ExitPlanToolName is the tool the main agent offers its plan with, in
// plan mode (Claude Code's ExitPlanMode).
const ExitPlanToolName = "exit_plan_mode"

// planModeNote goes with every prompt sent in plan mode, so the model
// knows why its changes would be refused and how plan mode ends.
const planModeNote = "[plan mode: the person wants a plan before anything changes. Only read-only tools run " +
	"(reading, searching, listing); edits, commands and sub-agents are refused. Look around as much as you need, " +
	"then call " + ExitPlanToolName + " with the plan. The person accepts it, and then you carry it out, " +
	"or says what to change. Ask questions in plain text when something is unclear.]"

// exitPlanTool offers the main agent's plan to the person: accepting it
// ends plan mode (normal, or auto-accept for edits) and the agent carries
// it out in the same turn; declining keeps plan mode, with what to
// change.
type exitPlanTool struct{ s *Session }

type exitPlanArgs struct {
	Plan string `json:"plan"`
}

func (exitPlanTool) Name() string { return ExitPlanToolName }

// ReadOnly: offering a plan changes nothing, so plan mode lets it run.
func (exitPlanTool) ReadOnly() bool { return true }

func (exitPlanTool) Description() string {
	return "In plan mode, offer the person your plan: they accept it, and then you carry it out, or tell you what " +
		"to change. Call it only in plan mode, once your plan is ready, with the whole plan in Markdown: the steps, " +
		"the files each touches, and how you will check the result."
}

func (exitPlanTool) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{` +
		`"plan":{"type":"string","description":"the plan, in Markdown"}},` +
		`"required":["plan"]}`)
}

func (t exitPlanTool) Title(json.RawMessage) string { return "plan ready" }

// Run asks the person to accept the plan and switches the mode as they
// answer.
func (t exitPlanTool) Run(ctx context.Context, args json.RawMessage) (tools.Result, error) {
	var a exitPlanArgs
	if err := json.Unmarshal(args, &a); err != nil {
		return tools.Result{}, fmt.Errorf("%s: %w", ExitPlanToolName, err)
	}
	plan := strings.TrimSpace(a.Plan)
	call, ok := tools.CallRefOf(ctx)
	switch {
	case plan == "":
		return tools.Result{}, fmt.Errorf("%s: plan is empty; send the whole plan", ExitPlanToolName)
	case !ok || call.Agent != event.MainAgent:
		return tools.Result{}, errors.New(ExitPlanToolName + ": only the main agent offers a plan")
	case t.s.AgentMode() != AgentModePlan:
		return tools.Result{}, fmt.Errorf("%s: the session is not in plan mode (it is in %s); carry on with the task", ExitPlanToolName, t.s.AgentMode().Label())
	case t.s.perms.Mode() == permission.Headless:
		return tools.Result{}, fmt.Errorf("%s: a headless run cannot ask the person to accept a plan; give the plan as your answer", ExitPlanToolName)
	}
	req := t.s.perms.Request(event.ApprovePlan)
	req.CallID, req.Tool, req.Args, req.Preview = call.ID, ExitPlanToolName, string(args), plan
	ans := t.s.perms.Ask(ctx, permission.Who{Meta: event.Meta{Agent: call.Agent}, Emit: t.s.emit}, req)
	// The accepted plan leads the result, so the conversation shows it
	// (ctrl+o: whole) once the card is gone.
	accepted := "Accepted plan:\n" + plan + "\n\nThe person accepted the plan. Plan mode is over: carry the plan out now. "
	switch ans.Decision {
	case event.Allow:
		t.s.switchMode(AgentModeNormal, true)
		return tools.Result{Summary: "accepted", Output: accepted +
			"Edits, commands and sub-agents ask the person first unless a rule allows them."}, nil
	case event.AllowAlways:
		t.s.switchMode(AgentModeAutoAccept, true)
		return tools.Result{Summary: "accepted · auto-accept edits", Output: accepted +
			"File edits run without asking; commands and sub-agents ask the person first unless a rule allows them."}, nil
	}
	if reason := strings.TrimSpace(ans.Reason); reason != "" {
		return tools.Result{}, &agent.DeniedError{Tool: ExitPlanToolName, Reason: reason,
			Text: "the person did not accept the plan and asks for changes: " + reason + "; stay in plan mode, revise the plan and offer it again"}
	}
	return tools.Result{}, &agent.DeniedError{Tool: ExitPlanToolName,
		Text: "the person did not accept the plan; stay in plan mode and ask what they want changed"}
}

// withModeNote adds the plan-mode note to a prompt sent in plan mode; a
// wake turn's empty prompt stays empty.
func (s *Session) withModeNote(prompt string) string {
	if prompt == "" || s.AgentMode() != AgentModePlan {
		return prompt
	}
	return prompt + "\n\n" + planModeNote
}

// mainLiveTools are the main agent's tools that come and go: the MCP
// servers' tools, and exit_plan_mode while the session is in plan mode
// (it is offered only where it can be called).
func (s *Session) mainLiveTools() func() []tools.Tool {
	mcp := s.mcpTools()
	return func() []tools.Tool {
		var live []tools.Tool
		if mcp != nil {
			live = slices.Clip(mcp())
		}
		if s.AgentMode() == AgentModePlan {
			live = append(live, exitPlanTool{s: s})
		}
		return live
	}
}
