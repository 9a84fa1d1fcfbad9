package engine

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// MCPSource is what a session needs of the MCP servers (an
// *mcp.Manager): the tools of the servers connected now, a status per
// server for /mcp (with its prompts and instructions), the prompts and
// resources a prompt names, and the roots servers are told of.
type MCPSource interface {
	Tools() []tools.Tool
	Statuses() []event.MCPServer
	// GetPrompt runs the prompt a slash command names (without its "/"),
	// its arguments the words of args.
	GetPrompt(ctx context.Context, command, args string) (tools.Result, error)
	// ReadResource reads one resource of a server.
	ReadResource(ctx context.Context, server, uri string) (tools.Result, error)
	// AddRoot and RemoveRoot add a folder (a child's worktree) to the
	// workspace in the roots servers get, and take it off again.
	AddRoot(dir, name string)
	RemoveRoot(dir string)
	// Wait blocks until ready holds for the statuses or ctx ends.
	Wait(ctx context.Context, ready func([]event.MCPServer) bool) error
}

// MCPServers is the status of every configured MCP server, for /mcp.
func (s *Session) MCPServers() []event.MCPServer {
	if s.cfg.MCP == nil {
		return nil
	}
	return s.cfg.MCP.Statuses()
}

// MCPServerAsk is an MCP server of an untrusted folder that wants to
// start, as its card shows it.
type MCPServerAsk struct {
	Name, Source string
	// Command is the command line or URL, exactly as it would run.
	Command string
	// TrustFolder, when set, records the folder as trusted the way
	// `baton trust` does and says so; the card then offers it.
	TrustFolder func() (said string, err error)
}

// ApproveMCPServer asks the person whether a server from an untrusted
// project may start, showing its command line on a card; it waits for the
// answer or the end of ctx or the session. An answer that trusts the
// folder records it through ask.TrustFolder (what was done, or why not,
// is told) and starts the server. cmd hands it to the MCP manager, which
// calls it from the server's own goroutine.
func (s *Session) ApproveMCPServer(ctx context.Context, ask MCPServerAsk) bool {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		return false
	}
	// Counted like a turn, so the event channel stays open while asking.
	s.turns.Add(1)
	s.mu.Unlock()
	defer s.turns.Done()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(s.ctx, cancel)()
	req := s.perms.Request(event.ApproveMCPServer)
	req.Tool = "MCP server " + ask.Name
	req.Server = &event.ServerPreview{Name: ask.Name, Command: ask.Command, Source: ask.Source, CanTrust: ask.TrustFolder != nil}
	main := permission.Who{Meta: event.Meta{Agent: event.MainAgent}, Emit: s.emit}
	switch s.perms.AskServer(ctx, main, req).Decision {
	case event.Allow:
		return true
	case event.AllowAlways:
		if ask.TrustFolder == nil {
			return true
		}
		said, err := ask.TrustFolder()
		if err != nil {
			said = "could not trust this folder: " + err.Error() + "; " + ask.Name + " starts this once"
		}
		s.emit(event.Notice{Meta: event.Meta{Agent: event.MainAgent, Time: time.Now()}, Text: said})
		return true
	}
	return false
}

// mcpTools is the main agent's source of live MCP tools (nil without
// servers).
func (s *Session) mcpTools() func() []tools.Tool {
	if s.cfg.MCP == nil {
		return nil
	}
	return s.cfg.MCP.Tools
}

// mcpInstructions is the part of an agent's system prompt the connected
// MCP servers write (their instructions, already cleaned and bounded by
// the manager), for the servers mine admits; nil without servers. It is
// read at every request, so a server that connects later is included.
func (s *Session) mcpInstructions(mine func(server string) bool) func() string {
	if s.cfg.MCP == nil {
		return nil
	}
	return func() string {
		var b strings.Builder
		for _, st := range s.cfg.MCP.Statuses() {
			if st.State != event.MCPConnected || st.Instructions == "" || mine != nil && !mine(st.Name) {
				continue
			}
			if b.Len() == 0 {
				b.WriteString("\n\n# Instructions from MCP servers\n\nThe MCP servers connected to you describe how to use their tools and resources:")
			}
			fmt.Fprintf(&b, "\n\n## MCP server %s\n\n%s", st.Name, st.Instructions)
		}
		return b.String()
	}
}

// worktreeRoot tells the MCP servers of a child's worktree while the child
// runs there, so a server that works on files (the filesystem server)
// reaches it; the returned func takes it off again.
func (s *Session) worktreeRoot(dir string, number int, typeName string) func() {
	if s.cfg.MCP == nil || dir == "" {
		return func() {}
	}
	s.cfg.MCP.AddRoot(dir, fmt.Sprintf("worktree of sub-agent #%d (%s)", number, typeName))
	return func() { s.cfg.MCP.RemoveRoot(dir) }
}

// maxMCPNotes bounds the notes told of one server; /mcp lists them all.
const maxMCPNotes = 5

// mcpNotes are the server notes told so far, so each is told once.
type mcpNotes struct {
	mu   sync.Mutex
	told map[string]bool
	per  map[string]int
}

// untold returns the notes of statuses not told yet, marking them told:
// at most maxMCPNotes a server, then one line saying how many more.
func (n *mcpNotes) untold(all []event.MCPServer) []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.told == nil {
		n.told, n.per = map[string]bool{}, map[string]int{}
	}
	var out []string
	for _, st := range all {
		more := 0
		for _, w := range st.Warnings {
			note := "MCP server " + st.Name + ": " + w
			switch {
			case n.told[note]:
			case n.per[st.Name] < maxMCPNotes:
				n.told[note], n.per[st.Name] = true, n.per[st.Name]+1
				out = append(out, note)
			default:
				n.told[note] = true
				more++
			}
		}
		if more > 0 {
			out = append(out, fmt.Sprintf("MCP server %s: %d more notes; /mcp lists them", st.Name, more))
		}
	}
	return out
}

// tellMCPNotes tells the person, as notices, what baton cut or left out
// of what each server sent (a description over the bound, instructions of
// an untrusted folder's server) and was not told yet.
func (s *Session) tellMCPNotes(send func(event.Event)) {
	if s.cfg.MCP == nil {
		return
	}
	for _, note := range s.mcpNotes.untold(s.cfg.MCP.Statuses()) {
		send(event.Notice{Meta: event.Meta{Agent: event.MainAgent, Time: time.Now()}, Text: note})
	}
}

// watchMCP tells the notes of servers that connect between turns (a turn
// tells what is waiting when it starts, so a headless run's are never
// lost). It runs until the session ends.
func (s *Session) watchMCP() {
	if s.cfg.MCP == nil {
		return
	}
	s.background.Add(1)
	// Ends when the session's context does: Wait returns then.
	go func() {
		defer s.background.Done()
		for {
			err := s.cfg.MCP.Wait(s.ctx, func(all []event.MCPServer) bool {
				for _, st := range all {
					if len(st.Warnings) > 0 && s.mcpNotes.pending(st) {
						return true
					}
				}
				return false
			})
			if err != nil {
				return
			}
			s.tellMCPNotes(s.send)
		}
	}()
}

// pending reports whether any note of st was not told yet.
func (n *mcpNotes) pending(st event.MCPServer) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, w := range st.Warnings {
		if !n.told["MCP server "+st.Name+": "+w] {
			return true
		}
	}
	return false
}
