package approval

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/overlay"
)

func server(id, name string, canTrust bool) *event.ApprovalRequest {
	return &event.ApprovalRequest{ID: id, Kind: event.ApproveMCPServer, Tool: "MCP server " + name,
		Server: &event.ServerPreview{Name: name, Command: "npx -y " + name + "\x1b[2J", Source: ".mcp.json", CanTrust: canTrust}}
}

// The cards are the layer under the conversation: an unarmed card lets
// every key be typed ahead, an armed one takes its answers and leaves ?
// to the help, the reason line takes every key; the footer says only
// what the card does not.
func TestCardsAsALayer(t *testing.T) {
	m, timers := queue(80, 16)
	if m.Place() != overlay.Body || m.FullHelp() != nil {
		t.Error("an empty queue is not a body layer without keys")
	}
	m.Push(parent, tool("t1"), 0)
	m.Arm()
	if m.Route(press("y")) != overlay.TypeAhead || m.ShortHelp() != nil {
		t.Error("an unarmed card takes keys")
	}
	for _, msg := range *timers {
		m.Update(msg)
	}
	*timers = nil
	pasted := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("y"), Paste: true}
	if m.Route(press("y")) != overlay.Take || m.Route(press("?")) != overlay.Help || m.Route(pasted) != overlay.TypeAhead {
		t.Error("an armed card routes y, ? or pasted text wrongly")
	}
	if keys := m.ShortHelp(); len(keys) != 2 || keys[1].Help().Key != "?" {
		t.Errorf("an armed card's footer: %v", keys)
	}
	if groups := m.FullHelp(); len(groups) != 1 || groups[0].Where != "card" || len(groups[0].Keys) != 6 {
		t.Errorf("an armed tool card's full help: %+v", groups)
	}
	m.Update(press("n"))
	if m.Route(press("?")) != overlay.Take || m.FullHelp() != nil || len(m.ShortHelp()) != 2 {
		t.Error("the reason line does not take every key")
	}
	m.Update(press("esc"))

	m.Push(parent, delegation("d1", "Explore", "a"), 0)
	armed(t, m, timers, parent, delegation("d2", "Explore", "b"))
	if keys := m.ShortHelp(); len(keys) != 3 {
		t.Errorf("a delegation card's footer: %v", keys)
	}
	if groups := m.FullHelp(); len(groups[0].Keys) != 8 {
		t.Errorf("two delegations' full help: %v", groups[0].Keys)
	}
	cmds := m.DropAll()
	run(cmds)
	if m.Len() != 0 {
		t.Errorf("%d cards after DropAll", m.Len())
	}
}

// An MCP server's card shows every byte of its command, escapes spelled
// out; y starts it, n leaves it off, t trusts the folder, and t is not
// offered where it cannot be recorded.
func TestServerCard(t *testing.T) {
	m, timers := queue(60, 16)
	req := server("s1", "github", true)
	armed(t, m, timers, parent, req)
	view := ansi.Strip(m.View())
	for _, want := range []string{"Start MCP server github?", "npx -y github", "from .mcp.json, in a folder you have not trusted", "t trust this folder"} {
		if !strings.Contains(strings.Join(strings.Fields(view), " "), want) {
			t.Errorf("the card lacks %q:\n%s", want, view)
		}
	}
	if strings.Contains(m.View(), "\x1b[2J") {
		t.Error("the command's escape reached the screen")
	}
	run(m.Update(press("t")))
	if got := req.Wait(t.Context()); got.Decision != event.AllowAlways || m.status.Text() != "trusting this folder; starting MCP server github" {
		t.Errorf("t answered %+v, said %q", got, m.status.Text())
	}
	for k, want := range map[string]event.Decision{"y": event.Allow, "n": event.Deny, "esc": event.Deny} {
		req := server("s-"+k, "db", false)
		armed(t, m, timers, parent, req)
		m.Update(press("t")) // not offered: does nothing
		m.Update(press("down"))
		run(m.Update(press(k)))
		if got := req.Wait(t.Context()); got.Decision != want {
			t.Errorf("%s answered %q, want %q", k, got.Decision, want)
		}
	}
}
