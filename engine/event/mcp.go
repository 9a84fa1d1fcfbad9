package event

import "strings"

// MCPState is where one MCP server stands. The states are plain strings so
// /mcp and headless messages can show them as they are.
type MCPState string

// The states of an MCP server.
const (
	// MCPStarting: the server is being launched or connected to.
	MCPStarting MCPState = "starting"
	// MCPConnected: the server answered and its tools are offered.
	MCPConnected MCPState = "connected"
	// MCPRestarting: the server exited or its connection broke; baton
	// starts it again after a pause.
	MCPRestarting MCPState = "restarting"
	// MCPFailed: the server could not be started, did not answer in time,
	// or kept crashing; its tools are left out.
	MCPFailed MCPState = "failed"
	// MCPAwaitingApproval: a server from an untrusted project waits for
	// the person to allow its command line.
	MCPAwaitingApproval MCPState = "awaiting approval"
	// MCPNotStarted: a server from an untrusted project that was not
	// allowed to start.
	MCPNotStarted MCPState = "not started"
)

// MCPServer is the status of one configured MCP server, a snapshot the UI
// and headless runs read without knowing the protocol.
type MCPServer struct {
	// Name is the server's name, as in mcp__NAME__tool.
	Name string `json:"name"`
	// Source is the file (or flag) that defined it.
	Source string `json:"source"`
	// Target is what is run or reached: the command line or the URL.
	Target string   `json:"target"`
	State  MCPState `json:"state"`
	// Tools are the tool names offered to the model while connected.
	Tools []string `json:"tools,omitempty"`
	// Error says why the server failed, is restarting or was not started.
	Error string `json:"error,omitempty"`
	// Restarts counts the restarts after a crash so far.
	Restarts int `json:"restarts,omitempty"`
	// Prompts are the server's prompts, each a slash command, while
	// connected.
	Prompts []MCPPrompt `json:"prompts,omitempty"`
	// Resources and Templates count what the server offers to read,
	// while connected; HasResources says it offers resources at all.
	Resources    int  `json:"resources,omitempty"`
	Templates    int  `json:"templates,omitempty"`
	HasResources bool `json:"has_resources,omitempty"`
	// Instructions are what the server asks the model to know (from its
	// handshake), cleaned and bounded, as they join the system prompt;
	// empty when it sent none or its folder is not trusted.
	Instructions string `json:"instructions,omitempty"`
	// Warnings say what baton cut or left out of what the server sent
	// (a description over the bound, a list too long).
	Warnings []string `json:"warnings,omitempty"`
}

// MCPPrompt is one prompt of an MCP server, offered as the slash command
// /mcp__SERVER__PROMPT.
type MCPPrompt struct {
	// Server is the server's name; Name the prompt's own name on it.
	Server string `json:"server"`
	Name   string `json:"name"`
	// Command is the slash command without its "/": mcp__SERVER__PROMPT,
	// with characters a command cannot hold replaced by '_'.
	Command     string `json:"command"`
	Description string `json:"description,omitempty"`
	// Arguments are filled, in order, from the words after the command.
	Arguments []MCPPromptArgument `json:"arguments,omitempty"`
}

// MCPPromptArgument is one argument a prompt takes.
type MCPPromptArgument struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// Usage is the command line as help shows it: /mcp__srv__greet CITY
// [STATE].
func (p MCPPrompt) Usage() string {
	parts := []string{"/" + p.Command}
	for _, a := range p.Arguments {
		word := strings.ToUpper(a.Name)
		if r := []rune(word); len(r) > 40 {
			word = string(r[:40]) + "…"
		}
		if !a.Required {
			word = "[" + word + "]"
		}
		parts = append(parts, word)
	}
	return strings.Join(parts, " ")
}

// Settled reports whether the server has finished starting, one way or
// the other; a headless run waits for every server to settle.
func (s MCPServer) Settled() bool {
	switch s.State {
	case MCPConnected, MCPFailed, MCPNotStarted:
		return true
	}
	return false
}
