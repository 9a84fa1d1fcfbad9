package ui

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/transcript"

	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// Log bounds: the messages shown unless a limit is given, and how much of
// one tool result is kept.
const (
	defaultLogLimit = 10
	logResultLines  = 8
)

// logMsg carries a child's log, read from its transcript in a Cmd.
type logMsg struct {
	title string
	text  string
	err   error
}

// subagentsLog parses "<id|#> [limit] [tools]" and reads the child's
// transcript in a Cmd: it works for children of a resumed session too.
func (m *Model) subagentsLog(rest string) tea.Cmd {
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		m.child("log", "")
		return nil
	}
	p, ok := m.child("log", fields[0])
	if !ok {
		return nil
	}
	limit, tools := defaultLogLimit, false
	for _, f := range fields[1:] {
		switch n, err := strconv.Atoi(f); {
		case f == "tools":
			tools = true
		case err != nil:
			m.setStatus(statusError, fmt.Sprintf("/subagents log: %q is neither a limit nor \"tools\"; usage: /subagents log <id|#> [limit] [tools]", termtext.Clean(f)))
			return nil
		case n < 1:
			m.setStatus(statusError, fmt.Sprintf("/subagents log: the limit must be 1 or more, got %d", n))
			return nil
		default:
			limit = n
		}
	}
	s, id, title := m.session, p.ID(), "Log of "+paneName(p)
	return func() tea.Msg {
		records, err := s.AgentRecords(id)
		if err != nil {
			return logMsg{err: fmt.Errorf("/subagents log: %w", err)}
		}
		return logMsg{title: title, text: formatLog(records, limit, tools)}
	}
}

// showLog puts a log read from a transcript into the conversation.
func (m *Model) showLog(msg logMsg) {
	if msg.err != nil {
		m.setStatus(statusError, termtext.Clean(msg.err.Error()))
		return
	}
	m.conv.add(&note{kind: noteInfo, text: termtext.Clean(msg.title + "\n" + msg.text)})
	m.conv.toBottom()
}

// chatMessage is the part of a recorded chat message a log shows. The UI
// never imports the OpenAI client, so it reads the JSON itself.
type chatMessage struct {
	Role      string `json:"role"`
	Content   string `json:"content"`
	ToolCalls []struct {
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
	Name string `json:"name"`
}

// formatLog writes the last limit messages of a transcript: the prompt,
// the child's text and the person's messages, and with tools its tool
// calls and (clipped) results. The system prompt is left out.
func formatLog(records []transcript.Record, limit int, tools bool) string {
	var entries []string
	for _, rec := range records {
		if rec.Kind != transcript.KindMessage {
			continue
		}
		var msg chatMessage
		if json.Unmarshal(rec.Data, &msg) != nil {
			continue
		}
		e := logEntry(msg, tools)
		switch {
		case e == "":
		case msg.Role == "tool" && len(entries) > 0: // a result stays with its call
			entries[len(entries)-1] += "\n" + e
		default:
			entries = append(entries, e)
		}
	}
	if len(entries) == 0 {
		return "(no messages yet)"
	}
	shown := entries[max(len(entries)-limit, 0):]
	head := ""
	if hidden := len(entries) - len(shown); hidden > 0 {
		head = fmt.Sprintf("… %s before these\n\n", plural(hidden, "earlier message"))
	}
	return head + strings.Join(shown, "\n\n")
}

// logEntry writes one message, or "" for one the log leaves out.
func logEntry(msg chatMessage, tools bool) string {
	content := strings.TrimSpace(msg.Content)
	switch msg.Role {
	case "user":
		return "› " + content
	case "assistant":
		var parts []string
		if content != "" {
			parts = append(parts, "● "+content)
		}
		if tools {
			for _, c := range msg.ToolCalls {
				parts = append(parts, fmt.Sprintf("⏺ %s %s", c.Function.Name, clipLines(c.Function.Arguments, 1)))
			}
		}
		return strings.Join(parts, "\n")
	case "tool":
		if !tools {
			return ""
		}
		return "  ⎿ " + strings.ReplaceAll(clipLines(content, logResultLines), "\n", "\n    ")
	}
	return ""
}

// clipLines keeps the first n lines of s and says how many were cut.
func clipLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) <= n {
		return strings.Join(lines, "\n")
	}
	return strings.Join(lines[:n], "\n") + fmt.Sprintf("\n… +%s", plural(len(lines)-n, "line"))
}
