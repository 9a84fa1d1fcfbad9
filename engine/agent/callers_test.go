package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// spawn is a caller tool, as task is: it readies each call in turn and
// records what it saw.
type spawn struct {
	mu    sync.Mutex
	ready []string // the calls' names, in the order they readied
	calls map[string]agent.Call
}

func (*spawn) Name() string                      { return "spawn" }
func (*spawn) Description() string               { return "starts a helper" }
func (*spawn) Schema() json.RawMessage           { return json.RawMessage(`{"type":"object"}`) }
func (*spawn) ReadOnly() bool                    { return false }
func (*spawn) Title(args json.RawMessage) string { return "spawn " + string(args) }
func (*spawn) Run(context.Context, json.RawMessage) (tools.Result, error) {
	return tools.Result{}, errors.New("spawn runs only for a caller")
}

func (s *spawn) RunFor(ctx context.Context, call agent.Call) (tools.Result, error) {
	var a struct {
		Name string
		Fail bool
	}
	_ = json.Unmarshal(call.Args, &a)
	if a.Fail {
		// Fails before it is ready: the calls after it must not wait
		// for it forever.
		return tools.Result{}, errors.New("no such helper type")
	}
	s.mu.Lock()
	s.ready = append(s.ready, a.Name)
	s.calls[a.Name] = call
	s.mu.Unlock()
	call.Stage.Ready()
	return tools.Result{Output: "helper " + a.Name + " reported: " + strings.Repeat("x", 40), Usage: event.Usage{TotalTokens: 100, Requests: 1}}, nil
}

// readOnlyOnly allows read-only calls and refuses the rest.
type readOnlyOnly struct{}

func (readOnlyOnly) Authorize(_ context.Context, req agent.ToolRequest) (tools.Withhold, error) {
	if !req.ReadOnly {
		return nil, &agent.DeniedError{Tool: req.Tool, Reason: "read-only only"}
	}
	return nil, nil
}

// The calls of a caller tool in one message are readied in the order
// asked, each seeing the whole batch, one failing early holding up none;
// they are neither authorized by the agent (the tool asks the person
// itself) nor cut to the output bound; their usage counts in the run.
func TestCallerToolCallsAreReadiedInOrderAndNotCut(t *testing.T) {
	sp := &spawn{calls: map[string]agent.Call{}}
	a, evs := newAgent(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if r.Index == 0 {
			w.ToolCalls(
				llmtest.Call{ID: "s1", Name: "spawn", Args: `{"name":"first"}`},
				llmtest.Call{ID: "e1", Name: "echo", Args: `{"text":"between"}`},
				llmtest.Call{ID: "s2", Name: "spawn", Args: `{"fail":true}`},
				llmtest.Call{ID: "s3", Name: "spawn", Args: `{"name":"third"}`},
			)
			return
		}
		w.Text("helpers done")
	}, func(c *agent.Config) {
		c.Tools = tools.NewSet(echo{readOnly: true}, sp)
		c.Authorize = readOnlyOnly{}
		c.OutputChars = 10
		c.Meta = event.Meta{Agent: event.MainAgent, Number: 0}
	})
	res := a.Run(context.Background(), "start helpers")
	if res.Status != event.StatusCompleted || res.Stats.ToolCalls != 4 {
		t.Fatalf("result %+v", res)
	}
	if got := strings.Join(sp.ready, ","); got != "first,third" {
		t.Errorf("readied %s, want first,third", got)
	}
	first := sp.calls["first"]
	if first.ID != "s1" || len(first.Batch) != 3 || string(first.Batch[2]) != `{"name":"third"}` || first.Caller.Meta.Agent != event.MainAgent || first.Caller.Model != "test-model" {
		t.Errorf("the first call saw %+v", first)
	}
	// The results come back in the order asked, whole.
	var results []string
	for _, m := range a.History() {
		if m.Role == "tool" {
			results = append(results, m.ToolCallID+"="+m.Content)
		}
	}
	want := []string{"s1=helper first reported: " + strings.Repeat("x", 40), "e1=echo: betw\n… [truncated: 3 more characters]",
		"s2=Error: no such helper type", "s3=helper third reported: " + strings.Repeat("x", 40)}
	if strings.Join(results, "|") != strings.Join(want, "|") {
		t.Errorf("results:\n%s\nwant\n%s", strings.Join(results, "\n"), strings.Join(want, "\n"))
	}
	if res.Stats.Usage.TotalTokens < 200 {
		t.Errorf("the helpers' usage is not counted: %+v", res.Stats.Usage)
	}
	var reported bool
	for _, ev := range evs.all {
		if u, ok := ev.(event.UsageReported); ok && u.Request.TotalTokens == 200 {
			reported = true
		}
	}
	if !reported {
		t.Error("the helpers' usage was not reported")
	}
}
