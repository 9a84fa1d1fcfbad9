package engine

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/mcp"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// maxMentions bounds the resources one prompt attaches.
const maxMentions = 10

// expansion is a prompt once its MCP parts are resolved: the text (an MCP
// prompt's, or the person's as typed), the resources it mentions, and
// the pictures of both.
type expansion struct {
	text        string
	attachments []string
	images      []tools.Image
}

// message is the user message the model gets: text, after it the
// resources, and the pictures when the model takes them.
func (x expansion) message(text string, takesImages bool) openai.ChatCompletionMessage {
	if len(x.attachments) > 0 {
		text = strings.Join(append([]string{text}, x.attachments...), "\n\n")
	}
	return agent.UserMessage(text, x.images, takesImages)
}

// expandPrompt resolves what a prompt asks of the MCP servers, in the
// TUI and headless alike: a prompt that is a server's prompt command
// (/mcp__SERVER__PROMPT args) becomes that prompt's text, and each
// resource it mentions (@SERVER:URI, SERVER a configured server) is read
// and attached. A mention that cannot be read is left as typed, with a
// notice; a prompt command that fails fails the turn, since sending it
// to the model as typed would mean nothing.
func (s *Session) expandPrompt(ctx context.Context, a *agent.Agent, prompt string) (expansion, error) {
	x := expansion{text: prompt}
	if s.cfg.MCP == nil {
		if strings.HasPrefix(prompt, "/"+mcp.Prefix) {
			return x, fmt.Errorf("%s: no MCP server is configured", strings.Fields(prompt)[0])
		}
		return x, nil
	}
	if command, args, ok := promptCommand(prompt); ok {
		res, err := s.cfg.MCP.GetPrompt(ctx, command, args)
		if err != nil {
			return x, err
		}
		x.text, x.images = agent.Truncate(res.Output, s.cfg.Limits.ToolOutputChars), res.Images
		a.Emit(event.Notice{Meta: a.Stamp(), Text: fmt.Sprintf("/%s: sent the MCP prompt (%s)", command, res.Summary)})
		return x, nil
	}
	s.attachMentions(ctx, a, &x)
	return x, nil
}

// promptCommand splits "/mcp__srv__greet Paris" into the command and its
// arguments.
func promptCommand(prompt string) (command, args string, ok bool) {
	if !strings.HasPrefix(prompt, "/"+mcp.Prefix) {
		return "", "", false
	}
	command, args, _ = strings.Cut(strings.TrimPrefix(prompt, "/"), " ")
	if i := strings.IndexAny(command, "\t\n"); i >= 0 {
		command, args = command[:i], command[i+1:]+" "+args
	}
	return command, args, true
}

// mention is @SERVER:URI where it starts a word.
func mention() *regexp.Regexp {
	mentionOnce.Do(func() { mentionValue = regexp.MustCompile(`(^|\s)@([A-Za-z0-9_-]+):(\S+)`) })
	return mentionValue
}

// mentionOnce and mentionValue hold it, built on first use (a zero
// sync.Once costs nothing at start; sync.OnceValue is init code).
var (
	mentionOnce  sync.Once
	mentionValue *regexp.Regexp
)

// attachMentions reads the resources the prompt mentions, once each, at
// most maxMentions, each bounded like a tool result.
func (s *Session) attachMentions(ctx context.Context, a *agent.Agent, x *expansion) {
	servers := map[string]bool{}
	for _, st := range s.cfg.MCP.Statuses() {
		servers[st.Name] = true
	}
	var seen []string
	for _, m := range mention().FindAllStringSubmatch(x.text, -1) {
		server, uri := m[2], trimSentenceEnd(m[3])
		ref := "@" + server + ":" + uri
		if !servers[server] || slices.Contains(seen, ref) {
			continue
		}
		seen = append(seen, ref)
		if len(seen) > maxMentions {
			a.Emit(event.Notice{Meta: a.Stamp(), Text: fmt.Sprintf("%s not attached: a prompt attaches at most %d resources", ref, maxMentions)})
			continue
		}
		res, err := s.cfg.MCP.ReadResource(ctx, server, uri)
		if err != nil {
			a.Emit(event.Notice{Meta: a.Stamp(), Text: fmt.Sprintf("%s not attached: %v", ref, err)})
			continue
		}
		x.attachments = append(x.attachments, fmt.Sprintf("<mcp-resource server=%q uri=%q>\n%s\n</mcp-resource>",
			server, uri, agent.Truncate(res.Output, s.cfg.Limits.ToolOutputChars)))
		x.images = append(x.images, res.Images...)
		a.Emit(event.Notice{Meta: a.Stamp(), Text: fmt.Sprintf("attached %s (%s)", ref, res.Summary)})
	}
}

// trimSentenceEnd drops the punctuation a sentence puts after a mention
// ("see @docs:guide.md."), and a closing bracket the URI did not open.
func trimSentenceEnd(uri string) string {
	for uri != "" {
		last := uri[len(uri)-1]
		switch {
		case strings.IndexByte(".,;:!?'\"", last) >= 0:
		case last == ')' && !strings.Contains(uri, "("):
		default:
			return uri
		}
		uri = uri[:len(uri)-1]
	}
	return uri
}
