package event

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
