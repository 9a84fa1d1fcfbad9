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

// edit is a writing tool that previews its change, holds its file while
// it writes and sets a task list, as write_file and todo_write do.
type edit struct {
	mu     sync.Mutex
	events []string
}

func (e *edit) note(s string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.events = append(e.events, s)
}

func (*edit) Name() string                 { return "edit" }
func (*edit) Description() string          { return "edits a file" }
func (*edit) Schema() json.RawMessage      { return json.RawMessage(`{"type":"object"}`) }
func (*edit) ReadOnly() bool               { return false }
func (*edit) Title(json.RawMessage) string { return "edit" }
func (e *edit) Preview(_ context.Context, args json.RawMessage) (string, error) {
	e.note("preview")
	return "--- a/f\n+++ b/f\n" + string(args), nil
}

type heldFile struct{}

func (e *edit) Lock(ctx context.Context, args json.RawMessage) (context.Context, func(), error) {
	if strings.Contains(string(args), "busy") {
		return nil, nil, errors.New("the file is held by another agent that stopped")
	}
	e.note("lock")
	return context.WithValue(ctx, heldFile{}, true), func() { e.note("unlock") }, nil
}

func (e *edit) Run(ctx context.Context, args json.RawMessage) (tools.Result, error) {
	if ctx.Value(heldFile{}) == nil {
		return tools.Result{}, errors.New("ran without holding the file")
	}
	e.note("run")
	return tools.Result{Output: "edited", Todos: []event.Todo{{Content: "check the edit", Status: event.TodoPending}}}, nil
}

// previewing is an Authorizer that reads the call's preview, as the card
// a person answers does, and allows it.
type previewing struct{ shown *[]string }

func (p previewing) Authorize(ctx context.Context, req agent.ToolRequest) (tools.Withhold, error) {
	if req.Preview != nil {
		text, err := req.Preview(ctx)
		if err != nil {
			return nil, err
		}
		*p.shown = append(*p.shown, text)
	}
	return nil, nil
}

// A writing call holds its file from the preview the person approves to
// the end of the write; a file it cannot hold is an error for the model;
// a task list it sets is shown.
func TestWriteHoldsItsFileFromPreviewToWrite(t *testing.T) {
	ed := &edit{}
	var shown []string
	a, evs := newAgent(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if r.Index == 0 {
			w.ToolCalls(llmtest.Call{ID: "e1", Name: "edit", Args: `{"path":"a.go"}`}, llmtest.Call{ID: "e2", Name: "edit", Args: `{"path":"busy.go"}`})
			return
		}
		w.Text("edited")
	}, func(c *agent.Config) {
		c.Tools = tools.NewSet(ed)
		c.Authorize = previewing{shown: &shown}
	})
	if res := a.Run(context.Background(), "edit"); res.Status != event.StatusCompleted {
		t.Fatalf("result %+v", res)
	}
	if got := strings.Join(ed.events, ","); got != "lock,preview,run,unlock" {
		t.Errorf("the edit went %s; want the lock held from the preview to the write", got)
	}
	if len(shown) != 1 || !strings.Contains(shown[0], `{"path":"a.go"}`) {
		t.Errorf("the person was shown %q", shown)
	}
	fin := evs.finished()
	if len(fin) != 2 || fin[1].Output != `wait for edit: the file is held by another agent that stopped` || !fin[1].IsError {
		t.Errorf("finished %+v", fin)
	}
	var todos bool
	for _, ev := range evs.all {
		if u, ok := ev.(event.TodosUpdated); ok && len(u.Todos) == 1 && u.Todos[0].Content == "check the edit" {
			todos = true
		}
	}
	if !todos {
		t.Error("the task list was not shown")
	}
}

// Refusals tell the model who said no: with the person's reason, with
// the words the authorizer chose, or that no reason was given and the
// call should not be retried unchanged; the person sees the first line.
func TestRefusalsTellTheModelWhatToDo(t *testing.T) {
	for _, c := range []struct {
		denied *agent.DeniedError
		model  string
	}{
		{&agent.DeniedError{Tool: "write"}, "denied this write call, giving no reason"},
		{&agent.DeniedError{Tool: "write", Text: "plan mode: write is not available until the plan is accepted\nexplain the plan instead"}, "plan mode: write is not available"},
	} {
		a, evs := newAgent(t, func(r *llmtest.Request, w *llmtest.Writer) {
			if r.Index == 0 {
				w.ToolCalls(llmtest.Call{Name: "write", Args: `{"text":"x"}`})
				return
			}
			if !r.HasToolResult(c.model) {
				t.Errorf("the model was not told %q", c.model)
			}
			w.Text("ok")
		}, func(cfg *agent.Config) { cfg.Authorize = refusing{c.denied} })
		a.Run(context.Background(), "write")
		fin := evs.finished()
		if len(fin) != 1 || !fin[0].Denied || strings.Contains(fin[0].Summary, "\n") || !strings.Contains(c.denied.Error(), fin[0].Summary) {
			t.Errorf("%v: finished %+v", c.denied, fin)
		}
	}
	if got := (&agent.DeniedError{Tool: "run_command"}).Error(); !strings.HasSuffix(got, "Do not retry it unchanged.") {
		t.Errorf("a refusal without a reason: %q", got)
	}
}

// refusing refuses every call with its error.
type refusing struct{ err *agent.DeniedError }

func (r refusing) Authorize(context.Context, agent.ToolRequest) (tools.Withhold, error) {
	return nil, r.err
}

// Arguments that are no JSON are quoted back to the model, clipped; the
// tools that come and go (MCP servers connecting) are offered and run
// from the step they appear in.
func TestBadArgumentsAreClippedAndLiveToolsOffered(t *testing.T) {
	var live []tools.Tool
	long := `{"text":"` + strings.Repeat("é", 300)
	a, _ := newAgent(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch r.Index {
		case 0:
			live = []tools.Tool{echo{readOnly: true}}
			w.ToolCalls(llmtest.Call{Name: "write", Args: long})
		case 1:
			if names := strings.Join(r.ToolNames(), ","); names != "write,echo" {
				t.Errorf("the second request offers %s", names)
			}
			w.ToolCalls(llmtest.Call{Name: "echo", Args: `{"text":"now here"}`})
		default:
			w.Text("done")
		}
	}, func(c *agent.Config) {
		c.Tools = tools.NewSet(echo{})
		c.LiveTools = func() []tools.Tool { return live }
	})
	if names := strings.Join(a.ToolNames(), ","); names != "write" {
		t.Errorf("before the server connects the agent has %s", names)
	}
	a.Run(context.Background(), "go")
	var results []string
	for _, m := range a.History() {
		if m.Role == "tool" {
			results = append(results, m.Content)
		}
	}
	if len(results) != 2 || !strings.Contains(results[0], "invalid JSON arguments for write: "+long[:9]+strings.Repeat("é", 191)+"…;") {
		t.Errorf("the model was told %q", results)
	}
	if results[1] != "echo: now here" {
		t.Errorf("the live tool answered %q", results[1])
	}
	if _, ok := a.Tool("echo"); !ok {
		t.Error("the live tool is not the agent's")
	}
}
