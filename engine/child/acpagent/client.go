package acpagent

import (
	"context"
	"encoding/json"

	"github.com/seed-e4e525a6/baton/engine/acp/jsonrpc"
)

// client is baton's side of the connection to the agent: it takes the
// agent's session updates and answers its requests.
type client struct{ h *handle }

// Request implements jsonrpc.Handler: permission questions and files;
// terminals are not offered, nor anything else.
func (c *client) Request(ctx context.Context, method string, params json.RawMessage) (any, func(), error) {
	var ref sessionRef
	if err := json.Unmarshal(params, &ref); err != nil {
		return nil, nil, jsonrpc.InvalidParams("invalid params: %v", err)
	}
	if id := c.h.session(); id == "" || ref.SessionID != id {
		return nil, nil, &jsonrpc.Error{Code: jsonrpc.CodeNotFound, Message: "no session " + ref.SessionID}
	}
	var (
		result any
		err    error
	)
	switch method {
	case "session/request_permission":
		result, err = c.h.permission(ctx, params)
	case "fs/read_text_file":
		result, err = c.h.readFile(ctx, params)
	case "fs/write_text_file":
		result, err = c.h.writeFile(ctx, params)
	default:
		return nil, nil, &jsonrpc.Error{Code: jsonrpc.CodeNoMethod, Message: "baton does not offer " + method + " to its sub-agents"}
	}
	return result, nil, err
}

// Notification implements jsonrpc.Handler: the agent's session updates,
// in order. One baton cannot read is shown, once, in the pane.
func (c *client) Notification(method string, params json.RawMessage) {
	if method != "session/update" {
		return
	}
	var n sessionNotification
	if json.Unmarshal(params, &n) != nil || n.SessionID != c.h.session() {
		return
	}
	if err := c.h.stream.take(n.Update); err != nil {
		c.h.malformed(err)
	}
}
