package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// Bounds of what a server's prompt list puts before people.
const (
	// maxPromptDescription bounds what help and completion show of a
	// prompt's description.
	maxPromptDescription = 500
	// maxCommand bounds a prompt's slash command.
	maxCommand = 100
	// maxPromptArguments bounds the arguments a prompt may take.
	maxPromptArguments = 20
)

// PromptCommand is the slash command, without its "/", that runs a
// server's prompt: mcp__SERVER__PROMPT, characters a command cannot hold
// replaced by '_'.
func PromptCommand(server, prompt string) string {
	return Prefix + server + "__" + invalidChars().ReplaceAllString(prompt, "_")
}

// promptCommands turns a server's prompts into slash commands; a second
// prompt whose command comes out the same is left out, with a warning.
func promptCommands(server string, list []*sdk.Prompt) ([]event.MCPPrompt, []string) {
	var (
		out      []event.MCPPrompt
		warnings []string
	)
	seen := map[string]bool{}
	for _, p := range list {
		if p == nil || p.Name == "" {
			continue
		}
		command := PromptCommand(server, p.Name)
		if utf8.RuneCountInString(command) > maxCommand {
			warnings = append(warnings, fmt.Sprintf("its prompt %q is left out: its name is longer than a command may be", bounded(p.Name, 40)))
			continue
		}
		if seen[command] {
			warnings = append(warnings, fmt.Sprintf("its prompt %q is left out: /%s is taken by another of its prompts", p.Name, command))
			continue
		}
		seen[command] = true
		desc := p.Description
		if desc == "" {
			desc = p.Title
		}
		prompt := event.MCPPrompt{Server: server, Name: p.Name, Command: command, Description: bounded(desc, maxPromptDescription)}
		if len(p.Arguments) > maxPromptArguments {
			warnings = append(warnings, fmt.Sprintf("its prompt %q is left out: it takes more than %d arguments", bounded(p.Name, 40), maxPromptArguments))
			continue
		}
		for _, a := range p.Arguments {
			if a != nil && a.Name != "" {
				prompt.Arguments = append(prompt.Arguments, event.MCPPromptArgument{Name: a.Name, Description: bounded(a.Description, maxPromptDescription), Required: a.Required})
			}
		}
		out = append(out, prompt)
	}
	return out, warnings
}

// bounded is s on one line, cut to max characters.
func bounded(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) > max {
		return string([]rune(s)[:max]) + "…"
	}
	return s
}

// Prompts are the prompts of the connected servers, in config order. It
// reads a snapshot without taking a lock, so the UI may call it while
// drawing.
func (m *Manager) Prompts() []event.MCPPrompt {
	if m == nil {
		return nil
	}
	if p := m.prompts.Load(); p != nil {
		return *p
	}
	return nil
}

// ErrNoPrompt says a slash command names no prompt of a connected server.
var ErrNoPrompt = errors.New("no such MCP prompt")

// GetPrompt runs the prompt a slash command names (command without its
// "/"): the words of args fill its arguments in order, quotes keeping
// words together, and the last argument takes whatever words are left.
// The result is the prompt's messages as text, with their pictures.
func (m *Manager) GetPrompt(ctx context.Context, command, args string) (tools.Result, error) {
	var prompt event.MCPPrompt
	found := false
	for _, p := range m.Prompts() {
		if p.Command == command {
			prompt, found = p, true
			break
		}
	}
	if !found {
		return tools.Result{}, fmt.Errorf("/%s: %w (connected servers' prompts are listed by /help)", command, ErrNoPrompt)
	}
	arguments, err := fillArguments(prompt, agenttypes.SplitArgs(args))
	if err != nil {
		return tools.Result{}, err
	}
	c, ok := m.live(prompt.Server)
	if !ok {
		return tools.Result{}, fmt.Errorf("MCP server %s is not connected (see /mcp)", prompt.Server)
	}
	call, cancel := context.WithTimeout(ctx, m.requestTimeout(prompt.Server))
	defer cancel()
	res, err := c.session.GetPrompt(call, &sdk.GetPromptParams{Name: prompt.Name, Arguments: arguments})
	if err != nil {
		return tools.Result{}, fmt.Errorf("/%s: %w", command, m.requestError(ctx, call, prompt.Server, "get prompt "+prompt.Name, err))
	}
	return renderPrompt(res).result(), nil
}

// fillArguments gives the prompt's arguments the words, in order.
func fillArguments(p event.MCPPrompt, words []string) (map[string]string, error) {
	if len(p.Arguments) == 0 {
		if len(words) > 0 {
			return nil, fmt.Errorf("/%s takes no arguments", p.Command)
		}
		return nil, nil
	}
	if n := len(p.Arguments); len(words) > n {
		words = append(words[:n-1], strings.Join(words[n-1:], " "))
	}
	out := map[string]string{}
	var missing []string
	for i, a := range p.Arguments {
		switch {
		case i < len(words):
			out[a.Name] = words[i]
		case a.Required:
			missing = append(missing, a.Name)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("/%s needs %s; usage: %s", p.Command, strings.Join(missing, ", "), p.Usage())
	}
	return out, nil
}

// renderPrompt renders a prompt's messages as one message to send: each
// message's content in turn, a blank line between them, and when the
// prompt speaks for the assistant too, each under a line naming its role.
func renderPrompt(res *sdk.GetPromptResult) *rendering {
	out := &rendering{}
	roles := false
	for _, msg := range res.Messages {
		roles = roles || msg != nil && msg.Role == "assistant"
	}
	var blocks []string
	for _, msg := range res.Messages {
		if msg == nil || msg.Content == nil {
			continue
		}
		one := &rendering{images: out.images}
		one.content(msg.Content)
		out.images = one.images
		text := strings.Join(one.parts, "\n")
		if roles {
			text = roleLabel(msg.Role) + ":\n" + text
		}
		blocks = append(blocks, text)
	}
	if len(blocks) > 0 {
		out.parts = []string{strings.Join(blocks, "\n\n")}
	}
	return out
}

// roleLabel names a message's role: User, Assistant.
func roleLabel(role sdk.Role) string {
	switch role {
	case "user":
		return "User"
	case "assistant":
		return "Assistant"
	}
	return bounded(string(role), 20)
}
