package acp

import (
	"encoding/json"
	"slices"

	"github.com/seed-e4e525a6/baton/engine/acp/jsonrpc"
	"github.com/seed-e4e525a6/baton/engine/permission"
)

// The ids of the session's config options.
const (
	optionMode  = "mode"
	optionModel = "model"
)

// modes are the agent modes as the client's mode picker shows them.
var modes = []sessionMode{
	{ID: string(permission.AgentModeNormal), Name: "Normal", Description: "Ask before edits, commands and sub-agents the rules do not allow"},
	{ID: string(permission.AgentModeAutoAccept), Name: "Auto-accept edits", Description: "Edit files without asking; still ask before commands and sub-agents"},
	{ID: string(permission.AgentModePlan), Name: "Plan", Description: "Read-only tools only: look and plan, change nothing"},
}

// setup is the session's modes and options, as session/new and
// session/load answer them.
func (ss *session) setup() sessionSetup {
	return sessionSetup{
		Modes:         modeState{CurrentModeID: string(ss.s.AgentMode()), AvailableModes: modes},
		ConfigOptions: ss.configOptions(),
	}
}

// configOptions are the mode and the model, as selects.
func (ss *session) configOptions() []configOption {
	mode := configOption{ID: optionMode, Name: "Mode", Category: "mode", Type: "select", CurrentValue: string(ss.s.AgentMode())}
	for _, m := range modes {
		mode.Options = append(mode.Options, selectOption{Value: m.ID, Name: m.Name, Description: m.Description})
	}
	current := ss.s.Model()
	model := configOption{ID: optionModel, Name: "Model", Category: "model", Type: "select", CurrentValue: current}
	served, _ := ss.s.ServedModels()
	if !slices.Contains(served, current) {
		served = append([]string{current}, served...)
	}
	for _, id := range served {
		model.Options = append(model.Options, selectOption{Value: id, Name: id})
	}
	return []configOption{mode, model}
}

// offerModels tells the client the endpoint's models once their list
// came, if the endpoint has one; it returns then, or when the session
// closes.
func (ss *session) offerModels() {
	select {
	case <-ss.s.ServedModelsLoaded():
	case <-ss.ctx.Done():
		return
	}
	if served, _ := ss.s.ServedModels(); len(served) == 0 {
		return
	}
	// Sent beside the pump: an option's values order against nothing
	// else the client shows.
	ss.send(configUpdate{SessionUpdate: "config_option_update", ConfigOptions: ss.configOptions()})
}

// setMode answers session/set_mode.
func (ss *session) setMode(params json.RawMessage) (any, func(), error) {
	var req setModeRequest
	if err := decode(params, &req); err != nil {
		return nil, nil, err
	}
	if err := ss.s.SetAgentMode(permission.AgentMode(req.ModeID)); err != nil {
		return nil, nil, jsonrpc.InvalidParams("%v", err)
	}
	return struct{}{}, func() {
		ss.send(configUpdate{SessionUpdate: "config_option_update", ConfigOptions: ss.configOptions()})
	}, nil
}

// setConfigOption answers session/set_config_option: the mode, or the
// main agent's model from the next request on.
func (ss *session) setConfigOption(params json.RawMessage) (any, func(), error) {
	var req setConfigOptionRequest
	if err := decode(params, &req); err != nil {
		return nil, nil, err
	}
	var value string
	if err := json.Unmarshal(req.Value, &value); err != nil || value == "" {
		return nil, nil, jsonrpc.InvalidParams("%s takes a value id (a string)", req.ConfigID)
	}
	var after func()
	switch req.ConfigID {
	case optionMode:
		if err := ss.s.SetAgentMode(permission.AgentMode(value)); err != nil {
			return nil, nil, jsonrpc.InvalidParams("%v", err)
		}
		after = func() { ss.send(modeUpdate{SessionUpdate: "current_mode_update", CurrentModeID: value}) }
	case optionModel:
		if why := ss.s.CheckModel(value); why != "" {
			return nil, nil, jsonrpc.InvalidParams("%s", why)
		}
		ss.s.SetModel(value)
	default:
		return nil, nil, jsonrpc.InvalidParams("no config option %q (baton has mode and model)", req.ConfigID)
	}
	return setConfigOptionResponse{ConfigOptions: ss.configOptions()}, after, nil
}
