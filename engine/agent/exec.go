package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/contextfile"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/rules"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// Authorizer decides whether an agent may run a tool call: by rules, or
// by asking the person, waiting until ctx ends. A nil error allows the
// call, and says what of a search's findings the person's rules keep from
// the model (nil: nothing); a refusal is an error for the model (a
// *DeniedError when the person said no).
type Authorizer interface {
	Authorize(ctx context.Context, req ToolRequest) (tools.Withhold, error)
}

// ToolRequest is one tool call to decide.
type ToolRequest struct {
	CallID   string
	Tool     string
	ReadOnly bool
	Args     json.RawMessage
	// Preview shows exactly what the call would do (a command line, a
	// diff) for a card; nil for a tool that has none.
	Preview func(context.Context) (string, error)
	// Hook is what the call's PreToolUse hooks decided: "", hooks.Allow
	// (no card) or hooks.Ask (a card); neither overrides a deny or ask
	// rule.
	Hook string
	// Narrowed, when set, is all that the agent's active skills let run
	// without asking (their allowed-tools); Skills names those skills.
	Narrowed []rules.Rule
	Skills   string
}

// DeniedError is a call the person refused: its text is for the model,
// and the executor marks the call denied for people.
type DeniedError struct {
	Tool, Reason string
	// Text, when set, is what the model is told instead of the usual
	// words.
	Text string
}

// Error implements error.
func (e *DeniedError) Error() string {
	if e.Text != "" {
		return e.Text
	}
	if e.Reason != "" {
		return event.PersonNote(fmt.Sprintf("denied this %s call: %s", e.Tool, e.Reason))
	}
	return event.PersonNote(fmt.Sprintf("denied this %s call, giving no reason", e.Tool)) + " Do not retry it unchanged."
}

// executor runs the tool calls of one assistant message for an agent:
// allowance, argument checks, permissions, bounded output and events.
type executor struct {
	authorize   Authorizer
	outputChars int
	// context adds nested AGENTS.md files the first time a call touches
	// their folder (nil: none).
	context *contextfile.Nested
}

// toolOutcome is what a batch of calls gives back to the loop.
type toolOutcome struct {
	messages   []openai.ChatCompletionMessage
	childUsage event.Usage
}

// callResult is one call's outcome.
type callResult struct {
	content string
	usage   event.Usage
	// images are the result's pictures, kept when the model takes them.
	images []tools.Image
}

// runAll runs calls and returns one tool message per call, in order. The
// calls of caller tools (task) are announced in the order requested,
// readied one by one (children numbered, queued, cards published) and
// then go on together, each in its own goroutine, which ends when its
// call does; the other calls run one after another once those are ready,
// so edits and commands never race each other.
func (e *executor) runAll(ctx context.Context, a *Agent, calls []openai.ToolCall) toolOutcome {
	results := make([]callResult, len(calls))
	set := a.toolSet()
	var together []int
	batches := map[string][]json.RawMessage{}
	for i, call := range calls {
		if tool, ok := set.Get(call.Function.Name); ok {
			if _, is := tool.(CallerTool); is {
				together = append(together, i)
				batches[call.Function.Name] = append(batches[call.Function.Name], json.RawMessage(call.Function.Arguments))
			}
		}
	}
	order := stages(len(together))
	var wg sync.WaitGroup
	for k, i := range together {
		tool, known := e.announce(a, set, calls[i])
		wg.Add(1)
		// Ends when the call does: a task call when its child ends or
		// goes to the background, bounded by the child's limits.
		go func() {
			defer wg.Done()
			st := order[k]
			st.wait()
			c := Call{ID: calls[i].ID, Args: json.RawMessage(calls[i].Function.Arguments), Caller: a.Caller(),
				Batch: batches[calls[i].Function.Name], Stage: st}
			res, err := e.execute(ctx, a, set, tool, known, calls[i], c)
			st.release()
			results[i] = e.report(a, calls[i], res, err)
		}()
	}
	if len(order) > 0 {
		<-order[len(order)-1].done
	}
	for i, call := range calls {
		if !slices.Contains(together, i) {
			results[i] = e.runOne(ctx, a, set, call)
		}
	}
	wg.Wait()
	var out toolOutcome
	for i, call := range calls {
		out.messages = append(out.messages, toolMessage(call, results[i].content))
		out.childUsage = out.childUsage.Add(results[i].usage)
	}
	for _, m := range resultImages(calls, results) {
		out.messages = append(out.messages, m)
		if a.cfg.Record != nil {
			a.cfg.Record(m)
		}
	}
	return out
}

// runOne runs a single call and reports it with ToolStarted/ToolFinished.
func (e *executor) runOne(ctx context.Context, a *Agent, set *tools.Set, call openai.ToolCall) callResult {
	tool, known := e.announce(a, set, call)
	res, err := e.execute(ctx, a, set, tool, known, call, Call{})
	return e.report(a, call, res, err)
}

// announce emits ToolStarted and returns the tool, if the agent has it.
func (e *executor) announce(a *Agent, set *tools.Set, call openai.ToolCall) (tools.Tool, bool) {
	tool, known := set.Get(call.Function.Name)
	title := call.Function.Name
	if known {
		title = tool.Title(json.RawMessage(call.Function.Arguments))
	}
	a.Emit(event.ToolStarted{Meta: a.Stamp(), CallID: call.ID, Name: call.Function.Name, Args: call.Function.Arguments, Title: title})
	return tool, known
}

// report emits ToolFinished and returns what the model receives.
func (e *executor) report(a *Agent, call openai.ToolCall, res tools.Result, err error) callResult {
	finished := event.ToolFinished{Meta: a.Stamp(), CallID: call.ID, Name: call.Function.Name, Summary: res.Summary, Output: res.Output, Diff: res.Diff}
	content := res.Output
	var images []tools.Image
	if err == nil && len(res.Images) > 0 && a.TakesImages() {
		images = res.Images
		content += imagesAttached
	}
	if err != nil {
		finished.IsError = true
		if denied, ok := errors.AsType[*DeniedError](err); ok {
			finished.Denied, finished.DenyReason = true, denied.Reason
		}
		finished.Output = err.Error()
		finished.Summary = firstLine(err.Error())
		content = "Error: " + err.Error()
	}
	a.Emit(finished)
	if a.cfg.Record != nil {
		// Written as soon as the call ends, not when its batch does: a
		// crash while a sibling still runs must not lose this result.
		a.cfg.Record(toolMessage(call, content))
	}
	return callResult{content: content, usage: res.Usage, images: images}
}

// toolMessage is the history message carrying a call's result.
func toolMessage(call openai.ToolCall, content string) openai.ChatCompletionMessage {
	return openai.ChatCompletionMessage{Role: openai.ChatMessageRoleTool, ToolCallID: call.ID, Name: call.Function.Name, Content: content}
}

// execute checks a call and runs it; c is the call as a caller tool
// receives it. Every model mistake comes back as an error for the model,
// never a panic.
func (e *executor) execute(ctx context.Context, a *Agent, set *tools.Set, tool tools.Tool, known bool, call openai.ToolCall, c Call) (tools.Result, error) {
	name, args := call.Function.Name, json.RawMessage(call.Function.Arguments)
	if !known {
		return tools.Result{}, fmt.Errorf("tool %q is not available to this agent; its tools are: %s", name, strings.Join(set.Names(), ", "))
	}
	if !json.Valid(args) {
		return tools.Result{}, fmt.Errorf("invalid JSON arguments for %s: %s; send one JSON object matching the tool's schema", name, clip(string(args), 200))
	}
	ctx = tools.WithCallRef(ctx, tools.CallRef{Agent: a.cfg.Meta.Agent, ID: call.ID})
	ctx = tools.WithReadable(ctx, a.cfg.Skills.readable())
	advice, err := a.beforeTool(ctx, call)
	if err != nil {
		return tools.Result{}, err
	}
	if serial, ok := tool.(tools.Serial); ok {
		// Held from the preview the approval shows to the end of the
		// write, so no other agent changes the file in between.
		locked, unlock, err := serial.Lock(ctx, args)
		if err != nil {
			return tools.Result{}, fmt.Errorf("wait for %s: %w", name, err)
		}
		defer unlock()
		ctx = locked
	}
	if ct, ok := tool.(CallerTool); ok {
		res, err := ct.RunFor(ctx, c)
		if err == nil {
			res.Output = a.afterTool(ctx, call, advice.Context, res.Output)
		}
		return res, err
	}
	req := ToolRequest{CallID: call.ID, Tool: name, ReadOnly: tool.ReadOnly(), Args: args, Hook: advice.Decision}
	req.Narrowed, req.Skills = a.cfg.Skills.narrowing()
	if pv, ok := tool.(tools.Previewer); ok {
		req.Preview = func(ctx context.Context) (string, error) { return pv.Preview(ctx, args) }
	}
	hold, err := e.authorize.Authorize(ctx, req)
	if err != nil {
		return tools.Result{}, err
	}
	if hold != nil {
		ctx = tools.WithWithhold(ctx, hold)
	}
	res, err := tool.Run(ctx, args)
	if err != nil {
		return tools.Result{}, err
	}
	if res.Todos != nil {
		a.Emit(event.TodosUpdated{Meta: a.Stamp(), Todos: res.Todos})
	}
	res.Output = Truncate(res.Output, e.outputChars)
	extra, notes := e.context.ForCall(args)
	if extra != "" {
		res.Output += "\n\n" + extra
	}
	for _, note := range notes {
		a.Emit(event.Notice{Meta: a.Stamp(), Text: note})
	}
	res.Output = a.afterTool(ctx, call, advice.Context, res.Output)
	return res, nil
}

// Truncate bounds s to max characters, saying how much was cut: a tool's
// output, a child's report.
func Truncate(s string, max int) string {
	if max <= 0 || utf8.RuneCountInString(s) <= max {
		return s
	}
	runes := []rune(s)
	return fmt.Sprintf("%s\n… [truncated: %d more characters]", string(runes[:max]), len(runes)-max)
}

// clip shortens s for an error message.
func clip(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	return string([]rune(s)[:max]) + "…"
}

// firstLine returns the first line of s.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// Tool is the tool of that name the agent is offered now.
func (a *Agent) Tool(name string) (tools.Tool, bool) { return a.toolSet().Get(name) }

// ToolNames are the tools the agent is offered now: its own, then the
// MCP tools of the servers connected at this moment.
func (a *Agent) ToolNames() []string { return a.toolSet().Names() }

// toolSet is the agent's fixed set plus the MCP tools connected now:
// the main agent sees servers that finish starting after the session did.
func (a *Agent) toolSet() *tools.Set {
	if a.cfg.LiveTools == nil {
		return a.cfg.Tools
	}
	return tools.NewSet(append(a.cfg.Tools.Tools(), a.cfg.LiveTools()...)...)
}
