package child

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/rules"
	"github.com/seed-e4e525a6/baton/engine/sandbox"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// Spec is everything a child needs, resolved once where its task call is
// read: from the call, its type, the session's configuration and the
// model catalogue. Every later step, whatever the runner, reads it.
type Spec struct {
	// Meta is the child's identity: id, parent, number, the parent's
	// task call, its type's display name and its description.
	Meta   event.Meta
	Type   agenttypes.Type
	Prompt string
	System string
	// Toolbox makes its built-in tools; Parent are the tools that stay
	// with the session (MCP servers, task), which a child placed
	// elsewhere calls through its runner.
	Toolbox Toolbox
	Parent  []tools.Tool
	Model   string
	// ModelWhy says why Model is not the one the file or call named.
	ModelWhy string
	MaxSteps int
	Timeout  time.Duration
	// Budget bounds its tokens and cost; when it, the steps or the time
	// run out, the child reports in one last step without tools.
	Budget event.Budget
	// Workspace is the folder the child works in: the session's, or its
	// worktree's (Worktree, "" for the person's tree).
	Workspace string
	Worktree  string
	// Rules are the type's own rules; Shown lists them as the card does.
	Rules rules.Set
	Shown []string
	// Skills are the skills it may load and has loaded from its start.
	Skills SkillSpec
	// Depth is 1 for the main agent's children.
	Depth int
	// Caller is the agent whose task call started the child.
	Caller agent.Caller
	// Background says the call returns at once with the child's id.
	Background bool
	// Runner names the runner that places the child; Where says where
	// that is ("container <image>").
	Runner string
	Where  string
	// Verify are the commands run on a worktree child's change when it
	// finishes: the task call's, else its agent file's, else
	// [subagents] verify.
	Verify []string
}

// Toolbox is how a child's built-in tools are made, as data, so that a
// child placed in another process builds the very same tools.
type Toolbox struct {
	// Names are the built-in tools the child has.
	Names    []string               `json:"names"`
	Limits   tools.Limits           `json:"limits"`
	Sandbox  sandbox.Policy         `json:"sandbox"`
	WebFetch *tools.WebFetchOptions `json:"web_fetch,omitempty"`
}

// Build makes the tools, bound to ws.
func (b Toolbox) Build(ws *tools.Workspace) *tools.Set {
	return tools.NewSet(tools.Builtin(ws, b.Limits, b.Sandbox, b.WebFetch)...).Only(b.Names)
}

// tools is every tool the child has: its built-in ones bound to ws,
// then those that stay with the session.
func (s Spec) tools(ws *tools.Workspace) *tools.Set {
	set := s.Toolbox.Build(ws)
	for _, t := range s.Parent {
		set = set.With(t)
	}
	return set
}

// toolNames lists every tool the child has, as its card shows them.
func (s Spec) toolNames() []string {
	names := slices.Clone(s.Toolbox.Names)
	for _, t := range s.Parent {
		names = append(names, t.Name())
	}
	if len(s.Skills.Offered) > 0 {
		names = append(names, agent.SkillToolName)
	}
	return names
}

// resolve turns a task call into a spec, or an error for the model naming
// what is wrong and what to do instead.
func (m *Manager) resolve(ctx context.Context, c taskCall, caller agent.Caller) (Spec, error) {
	typ, err := m.pickType(c.SubagentType)
	if err != nil {
		return Spec{}, err
	}
	if c.Effort != "" {
		typ.Effort = c.Effort
	}
	spec := m.typeSpec(typ, c.Instructions, m.opts.Workspace.Root())
	spec.Prompt, spec.Caller, spec.Depth, spec.Background = c.Prompt, caller, caller.Depth+1, c.Background
	spec.Model, spec.ModelWhy = m.childModel(ctx, c.Model, typ, caller.Model)
	if spec.Rules, spec.Shown, err = permission.OwnRules(typ); err != nil {
		return Spec{}, fmt.Errorf("agent type %q has a permission rule baton cannot read (%w); use another type", typ.Name, err)
	}
	if err := m.checkCapabilities(typ, spec.Model); err != nil {
		return Spec{}, err
	}
	// Built-in types carry the default limits; the configured limits
	// (child_steps_read_only, child_steps_write) decide for them: a
	// child that can write or run commands gets child_steps_write.
	spec.MaxSteps = typ.MaxSteps
	if spec.MaxSteps <= 0 || typ.Source == agenttypes.BuiltinSource {
		spec.MaxSteps = m.opts.Limits.StepsWrite
		if !slices.Contains(spec.Toolbox.Names, "run_command") && !canWrite(spec.Toolbox.Names) {
			spec.MaxSteps = m.opts.Limits.StepsReadOnly
		}
	}
	spec.Timeout = m.opts.Limits.Timeout
	if typ.Timeout > 0 {
		spec.Timeout = typ.Timeout
	}
	// The model may ask for less time than configured, never more: the
	// limit is the person's, and a prompt-injected model would raise it.
	if asked := time.Duration(c.TimeoutS) * time.Second; asked > 0 && asked < spec.Timeout {
		spec.Timeout = asked
	}
	spec.Budget = m.opts.Limits.Budget
	if typ.BudgetTokens > 0 {
		spec.Budget.Tokens = typ.BudgetTokens
	}
	if typ.BudgetCostUSD > 0 {
		spec.Budget.CostUSD = typ.BudgetCostUSD
	}
	spec.lowerTo(c.Budget)
	if spec.Runner, err = m.runnerOf(typ); err != nil {
		return Spec{}, err
	}
	spec.Where = whereOf(spec.Runner, m.opts.Runners[spec.Runner])
	spec.Skills = m.skillsFor(typ, spec.toolNames())
	spec.System += spec.Skills.Prompt
	spec.Verify = m.verifyOf(c.Verify, typ)
	return spec, nil
}

// lowerTo lowers the spec's budget, steps and time to what a task call
// asks; asking for more changes nothing, since the budget is the
// person's and a prompt-injected model would raise it.
func (s *Spec) lowerTo(b *callBudget) {
	if b == nil {
		return
	}
	s.Budget = s.Budget.Lower(event.Budget{Tokens: b.Tokens, CostUSD: b.CostUSD})
	if b.Steps > 0 && b.Steps < s.MaxSteps {
		s.MaxSteps = b.Steps
	}
	if asked := time.Duration(b.TimeS) * time.Second; asked > 0 && asked < s.Timeout {
		s.Timeout = asked
	}
}

// typeSpec is what a type gives a child working in workspace: its
// sandbox, its tools and its prompt.
func (m *Manager) typeSpec(typ agenttypes.Type, instructions, workspace string) Spec {
	box := m.childBox(typ)
	spec := Spec{Type: typ, Workspace: workspace, System: childSystemPrompt(typ, instructions, workspace, m.opts.AgentsMD)}
	if workspace != m.opts.Workspace.Root() {
		box, spec.Worktree = box.In(workspace), workspace
	}
	spec.Toolbox = Toolbox{Names: m.builtinNames(typ), Limits: m.opts.ToolLimits, Sandbox: box, WebFetch: m.webFetch()}
	spec.Parent = m.childMCPTools(typ.Tools)
	return spec
}

// pickType finds the named type, or makes a temporary read-only one from
// instructions when no type is named.
func (m *Manager) pickType(name string) (agenttypes.Type, error) {
	if name == "" {
		return agenttypes.Type{
			Name: "custom", DisplayName: "Custom", Description: "temporary agent from instructions",
			Tools: agenttypes.ReadOnlyTools, Model: agenttypes.InheritModel, Source: "task call",
		}, nil
	}
	typ, ok := m.opts.Types.Lookup(name)
	if !ok || typ.Hidden {
		return agenttypes.Type{}, fmt.Errorf("unknown subagent_type %q; valid types are: %s", name, strings.Join(m.opts.Types.Names(), ", "))
	}
	return typ, nil
}

// runnerOf is the runner a child of typ is placed with: its agent file's
// runner: field, else [subagents] runner. A runner this session cannot
// offer (Options.Unavailable) gives way to the session's, which a notice
// says; but a child meant for a container never runs on this machine
// instead, and fails saying why.
func (m *Manager) runnerOf(typ agenttypes.Type) (string, error) {
	name := typ.Runner
	if name == "" {
		name = m.opts.Runner
	}
	if _, ok := m.opts.Runners[name]; ok {
		return name, nil
	}
	why, ok := m.opts.Unavailable[name]
	if !ok {
		return "", fmt.Errorf("agent type %q asks for the runner %q, which baton does not have; use another type", typ.Name, name)
	}
	if _, ok := m.opts.Runners[m.opts.Runner]; !ok || name == RunnerContainer {
		return "", fmt.Errorf("a %s sub-agent runs on the %s runner, which is not available here (%s); it does not run on this machine instead", typ.Name, name, why)
	}
	m.sess.Emit(event.Notice{Meta: event.Meta{Agent: event.MainAgent, Time: time.Now()},
		Text: fmt.Sprintf("a %s sub-agent runs on the %s runner: the %s runner is not available here (%s)", typ.Name, m.opts.Runner, name, why)})
	return m.opts.Runner, nil
}

// childBox is the child's sandbox: the session's, with the network only
// if [sandbox] network is "on", or the type asks for it and does not
// come from the repository (which narrows, never widens).
func (m *Manager) childBox(typ agenttypes.Type) sandbox.Policy {
	root := m.opts.Workspace.Root()
	fromRepo := strings.HasPrefix(filepath.Clean(typ.Source), filepath.Clean(root)+string(filepath.Separator))
	on := m.opts.Network == "on" || (typ.SandboxNetwork == "on" && !fromRepo)
	return m.opts.Sandbox.WithNetwork(on && m.opts.Network != "off")
}

// builtinNames are the type's built-in tools that exist, filtered by the
// session's sub-agent policy (deny wins). A child never receives task
// here.
func (m *Manager) builtinNames(typ agenttypes.Type) []string {
	var names []string
	for _, name := range typ.Tools {
		if name == TaskToolName || slices.Contains(m.opts.SubagentDeny, name) {
			continue
		}
		if len(m.opts.SubagentAllow) > 0 && !slices.Contains(m.opts.SubagentAllow, name) {
			continue
		}
		if _, ok := m.base.Get(name); ok {
			names = append(names, name)
		}
	}
	return names
}

// childModel resolves the model: the call's, the type's, the session's
// sub-agent model, then the caller's. A model the call or type names is
// checked against what the endpoint serves.
func (m *Manager) childModel(ctx context.Context, asked string, typ agenttypes.Type, callerModel string) (model, why string) {
	fallback := m.opts.SubagentModel
	if fallback == "" {
		fallback = callerModel
	}
	want := asked
	if want == "" && typ.Model != agenttypes.InheritModel {
		want = typ.Model
	}
	return m.opts.ChooseModel(ctx, want, fallback)
}

// checkCapabilities refuses a type whose declared needs its model is known
// not to meet.
func (m *Manager) checkCapabilities(typ agenttypes.Type, model string) error {
	info, known := m.opts.Catalog.Lookup(model)
	for _, c := range typ.Capabilities {
		switch strings.ToLower(c) {
		case "vision", "images":
			if known && !info.SupportsImages {
				return fmt.Errorf("agent type %q needs vision, but model %s has no image input; pick a vision model with the model argument, another type, or a temporary agent with instructions", typ.Name, model)
			}
		case "reasoning":
			if known && !info.CanReason {
				return fmt.Errorf("agent type %q needs reasoning, but model %s cannot reason; pick a reasoning model with the model argument, or another type", typ.Name, model)
			}
		}
	}
	return nil
}

// canWrite reports whether tools named names can change files; a type
// that only reads and runs commands (test) counts as read-only for its
// step limit.
func canWrite(names []string) bool {
	return slices.Contains(names, "write_file") || slices.Contains(names, "edit_file")
}

// CanWrite reports whether the toolbox edits files.
func (b Toolbox) CanWrite() bool { return canWrite(b.Names) }

// estimate guesses the first request's prompt tokens (four characters a
// token) and its cost from the catalogue.
func (m *Manager) estimate(spec Spec) (int, float64, bool) {
	schema, _ := json.Marshal(tools.ToOpenAI(spec.tools(m.opts.Workspace).Tools()))
	tokens := (len(spec.System) + len(spec.Prompt) + len(schema)) / 4
	info, ok := m.opts.Catalog.Lookup(spec.Model)
	if !ok || !info.PriceKnown {
		return tokens, 0, false
	}
	return tokens, float64(tokens) * info.InputPerMillion / 1e6, true
}

// childSystemPrompt builds a child's system prompt: its type's prompt, any
// custom instructions from the task call, where it works, and AGENTS.md.
func childSystemPrompt(typ agenttypes.Type, instructions, workspace, agentsMD string) string {
	parts := []string{}
	if strings.TrimSpace(instructions) != "" {
		parts = append(parts, strings.TrimSpace(instructions))
	}
	if strings.TrimSpace(typ.SystemPrompt) != "" {
		parts = append(parts, strings.TrimSpace(typ.SystemPrompt))
	}
	parts = append(parts, fmt.Sprintf("You work in the project at %s; paths are relative to it. Your final message is your report to the agent that delegated to you.", workspace))
	if agentsMD != "" {
		parts = append(parts, "# Project instructions (AGENTS.md)\n\n"+agentsMD)
	}
	return strings.Join(parts, "\n\n")
}

// withheldNote says which tools the child's OpenCode agent relied on by
// OpenCode's default and does not get here, and how to grant them.
func (s Spec) withheldNote() string {
	have := s.toolNames()
	var missing []string
	for _, tool := range s.Type.WithheldTools {
		if !slices.Contains(have, tool) {
			missing = append(missing, tool)
		}
	}
	return agenttypes.WithheldBrief(missing, s.Type.Source)
}
