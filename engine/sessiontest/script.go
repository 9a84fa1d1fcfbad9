package sessiontest

import (
	"fmt"
	"strings"

	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// TaskCall is a task tool call delegating prompt to a child of type typ.
func TaskCall(id, typ, desc, prompt string) llmtest.Call {
	return llmtest.Call{ID: id, Name: child.TaskToolName, Args: fmt.Sprintf(`{"description":%q,"prompt":%q,"subagent_type":%q}`, desc, prompt, typ)}
}

// BackgroundCall is a task call that runs an explore child in the
// background.
func BackgroundCall(id, desc, prompt string) llmtest.Call {
	return llmtest.Call{ID: id, Name: child.TaskToolName, Args: fmt.Sprintf(`{"description":%q,"prompt":%q,"subagent_type":"explore","background":true}`, desc, prompt)}
}

// IsChild reports whether a request comes from a child: only the main
// agent is offered the task tool.
func IsChild(r *llmtest.Request) bool {
	for _, name := range r.ToolNames() {
		if name == child.TaskToolName {
			return false
		}
	}
	return true
}

// ChildByPrompt finds the child requests whose task prompt is prompt.
func ChildByPrompt(reqs []*llmtest.Request, prompt string) []*llmtest.Request {
	var out []*llmtest.Request
	for _, r := range reqs {
		if IsChild(r) && len(r.Body.Messages) > 1 && r.Body.Messages[1].Content == prompt {
			out = append(out, r)
		}
	}
	return out
}

// ToolMessages returns the tool-result contents of a request, in order.
func ToolMessages(r *llmtest.Request) []string {
	var out []string
	for _, m := range r.Body.Messages {
		if m.Role == "tool" {
			out = append(out, m.Content)
		}
	}
	return out
}

// LastIsUser reports whether a request's last message is the person's
// text.
func LastIsUser(r *llmtest.Request, text string) bool {
	last := r.Body.Messages[len(r.Body.Messages)-1]
	return last.Role == "user" && last.Content == text
}

// HasUser reports whether a request carries a user message containing sub.
func HasUser(r *llmtest.Request, sub string) bool {
	for _, m := range r.Body.Messages {
		if m.Role == "user" && strings.Contains(m.Content, sub) {
			return true
		}
	}
	return false
}

// DelegatingScript has the main agent delegate one explore task on the
// prompt "find auth" and answer plainly otherwise; children answer at
// once unless block is set, in which case they wait for the request to
// end.
func DelegatingScript(block bool) llmtest.Responder {
	return func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case IsChild(r) && block:
			<-w.Context().Done()
		case IsChild(r):
			w.Text("the auth code is in auth.go")
		case LastIsUser(r, "find auth"):
			w.ToolCalls(TaskCall("t1", "explore", "find auth code", "Find the auth code."))
		default:
			w.Text("answer to: " + r.LastUser())
		}
	}
}

// DelegateOnce scripts a main agent that makes one task call with args,
// children answering with respond, then sums up.
func DelegateOnce(args string, respond llmtest.Responder) llmtest.Responder {
	return func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case IsChild(r):
			respond(r, w)
		case len(ToolMessages(r)) == 0:
			w.ToolCalls(llmtest.Call{ID: "t1", Name: child.TaskToolName, Args: args})
		default:
			w.Text("summary")
		}
	}
}

// Gate is a channel a scripted child waits on, closed by the test.
type Gate chan struct{}

// Wait blocks a responder until the gate opens (true) or the request
// ends (false).
func (g Gate) Wait(w *llmtest.Writer) bool {
	select {
	case <-g:
		return true
	case <-w.Context().Done():
		return false
	}
}
