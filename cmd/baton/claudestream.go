package main

import (
	"encoding/json"
	"time"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// claudeMessages turns a session's events into Claude Code's messages and
// hands each to emit, in order.
type claudeMessages struct {
	info    claudeInfo
	emit    func(msg any)
	partial bool
	agents  map[event.AgentID]*claudeAgent
	// inputs are the calls' arguments, for the denials a result lists.
	inputs map[string]json.RawMessage
	// What the current prompt's result counts.
	turns    int
	apiTime  time.Duration
	denials  []claudeDenial
	initSent bool
	// ended are the sub-agents that ended in this prompt's run, by
	// their task call, for the call's result and the run's.
	ended     map[string]subagentEnding
	subagents []subagentEnding
}

// subagentEnding is how a sub-agent ended, as a task call's
// tool_use_result and the run's result list it: its status, use against
// its budget and what its parent was told the person did.
type subagentEnding struct {
	ID     event.AgentID `json:"id"`
	Status event.Status  `json:"status"`
	Reason string        `json:"reason,omitempty"`
	Use    event.Use     `json:"use"`
	Person []string      `json:"person,omitempty"`
}

// claudeAgent is what one agent's messages need: the task call that
// started it (nil for the main agent), its model, and the message of the
// request under way.
type claudeAgent struct {
	parent    *string
	model     string
	messageID string
	stepStart time.Time
	usage     messageUsage
	streaming bool
}

func newClaudeMessages(info claudeInfo, partial bool, emit func(any)) *claudeMessages {
	return &claudeMessages{info: info, emit: emit, partial: partial,
		agents: map[event.AgentID]*claudeAgent{event.MainAgent: {model: info.model}}, inputs: map[string]json.RawMessage{}}
}

// start emits system/init once, before the first message.
func (c *claudeMessages) start() {
	if c.initSent {
		return
	}
	c.initSent = true
	i := c.info
	servers := make([]claudeMCPStatus, 0, len(i.mcp))
	for _, s := range i.mcp {
		servers = append(servers, claudeMCPStatus{Name: s.Name, Status: string(s.State)})
	}
	c.emit(claudeInit{Type: "system", Subtype: "init", CWD: i.cwd, SessionID: i.sessionID, Tools: nonNil(i.tools),
		MCPServers: servers, Model: i.model, PermissionMode: i.permissionMode, SlashCommands: nonNil(i.commands),
		APIKeySource: "none", ClaudeCodeVersion: i.version, OutputStyle: "default", Agents: nonNil(i.agents),
		Skills: []string{}, Plugins: []string{}, UUID: newUUID(), Baton: i.version, Sandbox: i.sandbox})
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// agent returns the state of ev's agent, created on first sight.
func (c *claudeMessages) agent(m event.Meta) *claudeAgent {
	a, ok := c.agents[m.Agent]
	if !ok {
		a = &claudeAgent{model: c.info.model}
		if m.TaskCall != "" {
			call := m.TaskCall
			a.parent = &call
		}
		c.agents[m.Agent] = a
	}
	return a
}

// event turns one session event into the messages it makes.
func (c *claudeMessages) event(ev event.Event) {
	c.start()
	m := ev.EventMeta()
	a := c.agent(m)
	switch e := ev.(type) {
	case event.AgentStarted:
		if e.Model != "" {
			a.model = e.Model
		}
		c.user(m, a, claudeBlock{Type: "text", Text: &e.Prompt})
	case event.StepStarted:
		a.messageID, a.stepStart, a.usage = "msg_"+newUUID(), m.Time, messageUsage{}
		if m.Agent == event.MainAgent {
			c.turns++
		}
	case event.UsageReported:
		a.usage.InputTokens, a.usage.OutputTokens = e.Request.PromptTokens, e.Request.CompletionTokens
	case event.TextDelta:
		if c.partial {
			c.streamText(a, e.Text)
		}
	case event.MessageDone:
		c.endStream(a)
		if m.Agent == event.MainAgent && !a.stepStart.IsZero() && m.Time.After(a.stepStart) {
			c.apiTime += m.Time.Sub(a.stepStart)
		}
		if e.Text != "" {
			text := e.Text
			c.assistant(m, a, claudeBlock{Type: "text", Text: &text, Citations: json.RawMessage("null")})
		}
	case event.ToolStarted:
		input := toolInput(e.Args)
		c.inputs[e.CallID] = input
		c.assistant(m, a, claudeBlock{Type: "tool_use", ID: e.CallID, Name: e.Name, Input: input})
	case event.AgentFinished:
		end := subagentEnding{ID: e.Agent, Status: e.Status, Reason: e.Reason, Use: e.Use, Person: e.Person}
		if c.ended == nil {
			c.ended = map[string]subagentEnding{}
		}
		c.ended[e.TaskCall] = end
		c.subagents = append(c.subagents, end)
	case event.ToolFinished:
		out, isErr := e.Output, e.IsError || e.Denied
		if e.Denied {
			c.denials = append(c.denials, claudeDenial{ToolName: e.Name, ToolUseID: e.CallID, ToolInput: c.inputs[e.CallID]})
		}
		env := c.userEnvelope(m, a, claudeBlock{Type: "tool_result", ToolUseID: e.CallID, Content: &out, IsError: &isErr})
		if end, ok := c.ended[e.CallID]; ok {
			env.ToolUseResult = end
		}
		c.emit(env)
	}
}

// assistant emits one content block as an assistant message; the blocks
// of one model request share its message id, as Claude Code's do.
func (c *claudeMessages) assistant(m event.Meta, a *claudeAgent, block claudeBlock) {
	if a.messageID == "" {
		a.messageID = "msg_" + newUUID()
	}
	c.emit(claudeEnvelope{Type: "assistant", ParentToolUseID: a.parent, SessionID: c.info.sessionID, UUID: newUUID(), Agent: m.Agent,
		Message: claudeAssistant{ID: a.messageID, Type: "message", Role: "assistant", Model: a.model,
			Content: []claudeBlock{block}, Usage: a.usage}})
}

// user emits a user message: a sub-agent's prompt or a tool's result.
func (c *claudeMessages) user(m event.Meta, a *claudeAgent, block claudeBlock) {
	c.emit(c.userEnvelope(m, a, block))
}

// userEnvelope is a user message of one block.
func (c *claudeMessages) userEnvelope(m event.Meta, a *claudeAgent, block claudeBlock) claudeEnvelope {
	return claudeEnvelope{Type: "user", ParentToolUseID: a.parent, SessionID: c.info.sessionID, UUID: newUUID(), Agent: m.Agent,
		Message: claudeUserMessage{Role: "user", Content: []claudeBlock{block}}}
}

// streamText emits a text delta as the Messages API streams it, opening
// the message and its text block first.
func (c *claudeMessages) streamText(a *claudeAgent, text string) {
	if !a.streaming {
		a.streaming = true
		c.streamEvent(a, map[string]any{"type": "message_start", "message": claudeAssistant{ID: a.messageID, Type: "message",
			Role: "assistant", Model: a.model, Content: []claudeBlock{}}})
		empty := ""
		c.streamEvent(a, map[string]any{"type": "content_block_start", "index": 0,
			"content_block": claudeBlock{Type: "text", Text: &empty, Citations: json.RawMessage("null")}})
	}
	c.streamEvent(a, map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]string{"type": "text_delta", "text": text}})
}

// endStream closes what streamText opened.
func (c *claudeMessages) endStream(a *claudeAgent) {
	if !a.streaming {
		return
	}
	a.streaming = false
	c.streamEvent(a, map[string]any{"type": "content_block_stop", "index": 0})
	c.streamEvent(a, map[string]any{"type": "message_stop"})
}

func (c *claudeMessages) streamEvent(a *claudeAgent, ev any) {
	c.emit(claudeStreamEvent{Type: "stream_event", Event: ev, ParentToolUseID: a.parent, SessionID: c.info.sessionID, UUID: newUUID()})
}

// result is the message that closes a prompt's run; the counts start
// again for the next prompt.
func (c *claudeMessages) result(o outcome) claudeResult {
	c.start()
	cost := 0.0
	if o.Usage.CostKnown {
		cost = o.Usage.Cost
	}
	usage := resultUsageOf(o.Usage)
	r := claudeResult{Type: "result", Subtype: resultSubtype(o.Status), IsError: o.Status != event.StatusCompleted,
		DurationMS: o.Duration.Milliseconds(), DurationAPIMS: c.apiTime.Milliseconds(), NumTurns: c.turns, Result: o.Text,
		SessionID: c.info.sessionID, TotalCostUSD: cost,
		Usage:      usage,
		ModelUsage: map[string]claudeModelUsage{}, PermissionDenials: c.denials, UUID: newUUID(),
		batonResult: newBatonResult(o)}
	r.Subagents = c.subagents
	if r.Subagents == nil {
		r.Subagents = []subagentEnding{}
	}
	if r.PermissionDenials == nil {
		r.PermissionDenials = []claudeDenial{}
	}
	if o.Model != "" {
		r.ModelUsage[o.Model] = claudeModelUsage{InputTokens: usage.InputTokens, OutputTokens: usage.OutputTokens, CostUSD: cost}
	}
	if r.IsError {
		reason := o.Err
		if reason == "" {
			reason = "the run ended " + o.Status.Word()
		}
		r.Errors = []string{reason}
	}
	c.turns, c.apiTime, c.denials, c.ended, c.subagents = 0, 0, nil, nil, nil
	return r
}
