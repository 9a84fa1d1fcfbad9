package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/seed-e4e525a6/baton/agenttypes"

	"github.com/seed-e4e525a6/baton/engine/rules"
	"github.com/seed-e4e525a6/baton/engine/sandbox"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// childSpec is everything a child needs, resolved from a task call, its
// type, the session's configuration and the model catalogue.
type childSpec struct {
	typ   agenttypes.Type
	tools *tools.Set
	model string
	// modelWhy says why model is not the one the file or call named.
	modelWhy string
	maxSteps int
	timeout  time.Duration
	system   string
	box      sandbox.Policy
	// workspace is the folder the child works in: the session's, or its
	// worktree's.
	workspace string
	// rules are the type's own rules, and shown how the card lists them.
	rules rules.Set
	shown []string
	// skills are what the child may load and has loaded from its start.
	skills childSkills
}

// resolve turns a task call into a spec, or an error for the model naming
// what is wrong and what to do instead.
func (d *delegator) resolve(ctx context.Context, a taskArgs, mainModel string) (childSpec, error) {
	typ, err := d.pickType(a)
	if err != nil {
		return childSpec{}, err
	}
	if a.Effort != "" {
		typ.Effort = a.Effort
	}
	choice := d.childModel(ctx, a, typ, mainModel)
	spec := childSpec{typ: typ, box: d.childBox(typ), model: choice.model, modelWhy: choice.why, workspace: d.workspace}
	spec.tools = d.childTools(d.ws, typ, spec.box)
	if spec.rules, spec.shown, err = ownRules(typ); err != nil {
		return childSpec{}, fmt.Errorf("agent type %q has a permission rule baton cannot read (%w); use another type", typ.Name, err)
	}
	if err := d.checkCapabilities(typ, spec.model); err != nil {
		return childSpec{}, err
	}
	// Built-in types carry the default limits; the configured limits
	// (child_steps_read_only, child_steps_write) decide for them: a
	// child that can write or run commands gets child_steps_write.
	spec.maxSteps = typ.MaxSteps
	if spec.maxSteps <= 0 || typ.Source == agenttypes.BuiltinSource {
		spec.maxSteps = d.limits.ChildStepsWrite
		if _, runs := spec.tools.Get("run_command"); !runs && !canWrite(spec.tools) {
			spec.maxSteps = d.limits.ChildStepsReadOnly
		}
	}
	spec.timeout = d.limits.ChildTimeout
	if typ.Timeout > 0 {
		spec.timeout = typ.Timeout
	}
	// The model may ask for less time than configured, never more: the
	// limit is the person's, and a prompt-injected model would raise it.
	if asked := time.Duration(a.TimeoutS) * time.Second; asked > 0 && asked < spec.timeout {
		spec.timeout = asked
	}
	spec.system = childSystemPrompt(typ, a.Instructions, d.workspace, d.agentsMD)
	spec.skills, spec.tools, spec.system = d.skillsFor(typ, spec.tools, spec.system)
	return spec, nil
}

// pickType finds the named type, or makes a temporary read-only one from
// instructions when no type is named.
func (d *delegator) pickType(a taskArgs) (agenttypes.Type, error) {
	if a.SubagentType == "" {
		return agenttypes.Type{
			Name: "custom", DisplayName: "Custom", Description: "temporary agent from instructions",
			Tools: agenttypes.ReadOnlyTools, Model: agenttypes.InheritModel, Source: "task call",
		}, nil
	}
	typ, ok := d.types.Lookup(a.SubagentType)
	if !ok || typ.Hidden {
		return agenttypes.Type{}, fmt.Errorf("unknown subagent_type %q; valid types are: %s", a.SubagentType, strings.Join(d.types.Names(), ", "))
	}
	return typ, nil
}

// childBox is the child's sandbox: the session's, with the network only
// if [sandbox] network is "on", or the type asks for it and does not
// come from the repository (which narrows, never widens).
func (d *delegator) childBox(typ agenttypes.Type) sandbox.Policy {
	fromRepo := strings.HasPrefix(filepath.Clean(typ.Source), filepath.Clean(d.workspace)+string(filepath.Separator))
	on := d.network == "on" || (typ.SandboxNetwork == "on" && !fromRepo)
	return d.box.WithNetwork(on && d.network != "off")
}

// childTools is the type's tools that exist, filtered by the session's
// sub-agent policy (deny wins), bound to the child's workspace (the
// session's, or its worktree) and with run_command bound to the child's
// sandbox. A child never receives task here.
func (d *delegator) childTools(ws *tools.Workspace, typ agenttypes.Type, box sandbox.Policy) *tools.Set {
	var names []string
	for _, name := range typ.Tools {
		if name == TaskToolName || slices.Contains(d.policyDeny, name) {
			continue
		}
		if len(d.policyAllow) > 0 && !slices.Contains(d.policyAllow, name) {
			continue
		}
		names = append(names, name)
	}
	base := d.base
	if ws != d.ws {
		// The file tools and commands move to the worktree; the tools
		// bound to no folder (todo_write, web_fetch) stay as they are.
		for _, t := range tools.Base(ws, d.toolLimits, box) {
			base = base.With(t)
		}
	}
	set := base.Only(names)
	if _, ok := set.Get("run_command"); ok {
		set = set.With(tools.RunCommand(ws, d.toolLimits, box))
	}
	for _, t := range d.childMCPTools(typ.Tools) {
		set = set.With(t)
	}
	return set
}

// childModel resolves the model: the call's, the type's, the session's
// sub-agent model, then the main model. A model the call or type names is
// checked against what the endpoint serves.
func (d *delegator) childModel(ctx context.Context, a taskArgs, typ agenttypes.Type, mainModel string) modelChoice {
	fallback := d.subagentModel
	if fallback == "" {
		fallback = mainModel
	}
	want := a.Model
	if want == "" && typ.Model != agenttypes.InheritModel {
		want = typ.Model
	}
	return d.s.served.choose(ctx, want, fallback)
}

// checkCapabilities refuses a type whose declared needs its model is known
// not to meet.
func (d *delegator) checkCapabilities(typ agenttypes.Type, model string) error {
	info, known := d.catalog.Lookup(model)
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

// canWrite reports whether s can change files; a type that only reads
// and runs commands (test) counts as read-only for its step limit.
func canWrite(s *tools.Set) bool {
	_, write := s.Get("write_file")
	_, edit := s.Get("edit_file")
	return write || edit
}

// estimate guesses the first request's prompt tokens (four characters a
// token) and its cost from the catalogue.
func (d *delegator) estimate(spec childSpec, prompt string) (int, float64, bool) {
	schema, _ := json.Marshal(tools.ToOpenAI(spec.tools.Tools()))
	tokens := (len(spec.system) + len(prompt) + len(schema)) / 4
	info, ok := d.catalog.Lookup(spec.model)
	if !ok || !info.PriceKnown {
		return tokens, 0, false
	}
	return tokens, float64(tokens) * info.InputPerMillion / 1e6, true
}

// withheldNote says which tools the child's OpenCode agent relied on by
// OpenCode's default and does not get here, and how to grant them.
func withheldNote(spec childSpec) string {
	var missing []string
	for _, tool := range spec.typ.WithheldTools {
		if _, has := spec.tools.Get(tool); !has {
			missing = append(missing, tool)
		}
	}
	return agenttypes.WithheldBrief(missing, spec.typ.Source)
}
