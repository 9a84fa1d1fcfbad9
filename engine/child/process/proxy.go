package process

import (
	"context"
	"encoding/json"

	openai "github.com/sashabaranov/go-openai"
	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// parentTool is the child's side of a tool that stays with baton: the
// model sees it as baton describes it, and every call runs at baton's
// end.
func (c *conn) parentTool(pt parentTool) tools.Tool {
	p := proxy{c: c, info: pt}
	if pt.Caller {
		return callerProxy{p}
	}
	return p
}

// proxy is a tool that runs at baton's end.
type proxy struct {
	c    *conn
	info parentTool
}

// Name implements tools.Tool.
func (p proxy) Name() string { return p.info.Name }

// Description implements tools.Tool.
func (p proxy) Description() string { return p.info.Description }

// Schema implements tools.Tool.
func (p proxy) Schema() json.RawMessage { return p.info.Schema }

// ReadOnly implements tools.Tool.
func (p proxy) ReadOnly() bool { return p.info.ReadOnly }

// Title implements tools.Tool: baton gives the call its own tool's title
// when it takes the event.
func (p proxy) Title(json.RawMessage) string { return p.info.Name }

// Run implements tools.Tool.
func (p proxy) Run(ctx context.Context, args json.RawMessage) (tools.Result, error) {
	return p.call(ctx, question{Tool: &toolCall{Name: p.info.Name, Args: args}}, nil)
}

// call runs the tool at baton's end and returns its result.
func (p proxy) call(ctx context.Context, q question, ready chan struct{}) (tools.Result, error) {
	r := p.c.ask(ctx, q, ready)
	if err := r.err(); err != nil {
		return tools.Result{}, err
	}
	if r.Result == nil {
		return tools.Result{}, nil
	}
	return *r.Result, nil
}

// callerProxy is a tool acting for its caller (task) that runs at baton's
// end, for this child: its calls of one message are readied in step with
// baton's.
type callerProxy struct{ proxy }

// RunFor implements agent.CallerTool: once baton says the call is ready,
// the call is ready here too, and baton hears when the whole batch is.
func (p callerProxy) RunFor(ctx context.Context, call agent.Call) (tools.Result, error) {
	id := p.c.nextID.Add(1)
	ready := make(chan struct{})
	done := make(chan struct{})
	defer close(done)
	// Ends once baton said the call is ready and the batch is ready here
	// too, or when the call ends first.
	go func() {
		select {
		case <-ready:
		case <-done:
			return
		}
		call.Stage.Ready()
		_ = p.c.out.write(up{Go: id})
	}()
	return p.call(ctx, question{ID: id, Tool: &toolCall{CallID: call.ID, Name: p.info.Name, Args: call.Args, Batch: call.Batch}}, ready)
}

// hookProxy runs the child's hooks at baton's end, where the session's
// hook commands and their record live (agent.Hooks).
type hookProxy struct{ c *conn }

// at asks baton to run the hooks at p.
func (hp hookProxy) at(ctx context.Context, p hookPoint) (agent.HookAdvice, error) {
	r := hp.c.ask(ctx, question{Hook: &p}, nil)
	var adv agent.HookAdvice
	if r.Advice != nil {
		adv = *r.Advice
	}
	return adv, r.err()
}

// BeforeTool implements agent.Hooks.
func (hp hookProxy) BeforeTool(ctx context.Context, call openai.ToolCall) (agent.HookAdvice, error) {
	return hp.at(ctx, hookPoint{At: hookBeforeTool, Call: call})
}

// AfterTool implements agent.Hooks.
func (hp hookProxy) AfterTool(ctx context.Context, call openai.ToolCall, output string) agent.HookAdvice {
	adv, _ := hp.at(ctx, hookPoint{At: hookAfterTool, Call: call, Output: output})
	return adv
}

// Stop implements agent.Hooks.
func (hp hookProxy) Stop(ctx context.Context, last string, active bool) agent.HookAdvice {
	adv, _ := hp.at(ctx, hookPoint{At: hookStop, Last: last, Active: active})
	return adv
}

// Ended implements agent.Hooks.
func (hp hookProxy) Ended(ctx context.Context, last string) {
	_, _ = hp.at(ctx, hookPoint{At: hookEnded, Last: last})
}
