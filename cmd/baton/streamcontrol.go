package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/seed-e4e525a6/baton/engine"
)

// controlRequest is the part of a control request baton reads.
type controlRequest struct {
	Subtype string `json:"subtype"`
	// SystemPrompt and AppendSystemPrompt come with initialize: the
	// Agent SDK's systemPrompt option, a string or a list of parts.
	SystemPrompt       json.RawMessage `json:"systemPrompt"`
	AppendSystemPrompt string          `json:"appendSystemPrompt"`
	// Model comes with set_model.
	Model string `json:"model"`
}

// controlAnswer is Claude Code's control_response.
type controlAnswer struct {
	Type     string         `json:"type"`
	Response controlVerdict `json:"response"`
}

type controlVerdict struct {
	Subtype   string `json:"subtype"`
	RequestID string `json:"request_id"`
	Response  any    `json:"response,omitempty"`
	Error     string `json:"error,omitempty"`
}

// initializeAnswer is what initialize returns: the commands, agents and
// models the session offers (SDKControlInitializeResponse).
type initializeAnswer struct {
	Commands              []commandInfo  `json:"commands"`
	Agents                []agentInfo    `json:"agents"`
	OutputStyle           string         `json:"output_style"`
	AvailableOutputStyles []string       `json:"available_output_styles"`
	Models                []modelInfo    `json:"models"`
	Account               map[string]any `json:"account"`
}

type commandInfo struct {
	Name         string `json:"name"`
	Description  string `json:"description"`
	ArgumentHint string `json:"argumentHint"`
}

type agentInfo struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Model       string `json:"model,omitempty"`
}

type modelInfo struct {
	Value       string `json:"value"`
	DisplayName string `json:"displayName"`
	Description string `json:"description"`
}

// answer answers one control request: before the session exists (ecfg
// set) initialize may change its system prompt; after it (s set)
// interrupt and set_model act on it. Requests baton has no equivalent of
// get an error answer naming them, which the SDK turns into a rejected
// promise, never a hang.
func (in *streamInput) answer(id string, raw json.RawMessage, s turnSession, ecfg *engine.Config) {
	var req controlRequest
	if err := json.Unmarshal(raw, &req); err != nil {
		in.reply(id, nil, fmt.Errorf("the request is not a JSON object: %w", err))
		return
	}
	switch {
	case req.Subtype == "initialize" && ecfg != nil:
		if err := applyInitialize(req, ecfg); err != nil {
			in.reply(id, nil, err)
			return
		}
		in.reply(id, in.initializeAnswer(), nil)
	case req.Subtype == "initialize":
		in.reply(id, nil, fmt.Errorf("initialize comes before the first user message"))
	case req.Subtype == "interrupt":
		if s != nil {
			s.Interrupt()
		}
		in.reply(id, map[string]any{}, nil)
	case req.Subtype == "set_model" && strings.TrimSpace(req.Model) != "":
		if s != nil {
			s.SetModel(req.Model)
		} else {
			ecfg.Model = req.Model
		}
		in.model = req.Model
		in.reply(id, map[string]any{}, nil)
	default:
		in.reply(id, nil, fmt.Errorf("baton does not support the control request %q", req.Subtype))
	}
}

// applyInitialize takes the system prompt the Agent SDK sends.
func applyInitialize(req controlRequest, ecfg *engine.Config) error {
	if len(req.SystemPrompt) > 0 && string(req.SystemPrompt) != "null" {
		var text string
		var parts []string
		switch {
		case json.Unmarshal(req.SystemPrompt, &text) == nil:
		case json.Unmarshal(req.SystemPrompt, &parts) == nil:
			text = strings.Join(parts, "\n\n")
		default:
			return fmt.Errorf("initialize: systemPrompt must be text or a list of text")
		}
		if strings.TrimSpace(text) != "" {
			ecfg.SystemPrompt = text
		}
	}
	if extra := strings.TrimSpace(req.AppendSystemPrompt); extra != "" {
		ecfg.AppendSystemPrompt = strings.TrimSpace(ecfg.AppendSystemPrompt + "\n\n" + extra)
	}
	return nil
}

// initializeAnswer lists the session's commands, agents and model.
func (in *streamInput) initializeAnswer() initializeAnswer {
	a := initializeAnswer{Commands: []commandInfo{}, Agents: []agentInfo{}, OutputStyle: "default",
		AvailableOutputStyles: []string{"default"}, Account: map[string]any{},
		Models: []modelInfo{{Value: in.model, DisplayName: in.model, Description: "the model baton's endpoint serves"}}}
	for _, c := range in.run.commands {
		a.Commands = append(a.Commands, commandInfo{Name: c.Name, Description: c.Description, ArgumentHint: c.ArgumentHint})
	}
	for _, t := range in.run.types {
		if !t.Hidden && !t.Disabled {
			a.Agents = append(a.Agents, agentInfo{Name: t.Name, Description: t.Description})
		}
	}
	return a
}

// reply writes the control_response for request id.
func (in *streamInput) reply(id string, response any, err error) {
	v := controlVerdict{Subtype: "success", RequestID: id, Response: response}
	if err != nil {
		v = controlVerdict{Subtype: "error", RequestID: id, Error: err.Error()}
	}
	b, _ := json.Marshal(controlAnswer{Type: "control_response", Response: v})
	in.out.printf("%s\n", b)
}
