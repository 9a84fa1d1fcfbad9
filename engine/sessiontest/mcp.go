package sessiontest

import (
	"context"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/mcp"
)

// StartMCP starts a manager for servers and waits until each is
// connected.
func StartMCP(t testing.TB, opts mcp.Options, servers ...mcp.Server) *mcp.Manager {
	t.Helper()
	m := mcp.NewManager(servers, opts)
	m.Start(context.Background())
	t.Cleanup(m.Close)
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	if err := m.Wait(ctx, mcp.AllSettled); err != nil {
		t.Fatal(err)
	}
	for _, st := range m.Statuses() {
		if st.State != event.MCPConnected {
			t.Fatalf("server not connected: %+v", st)
		}
	}
	return m
}
