package engine

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

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/hooks"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// executor runs the tool calls of one assistant message for an agent:
// allowance, argument checks, permissions, bounded output and events.
type executor struct {
	perms       *permissions
	outputChars int
	// context adds nested AGENTS.md files the first time a call touches
	// their folder (nil: none).
	context *nestedContext
	// hooks run the session's PreToolUse and PostToolUse hooks (nil: none).
	hooks *hookPoints
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
// calls of tools that run alongside (task) are announced in the order
// requested, readied one by one (children numbered, queued, cards
// published) and then go on together, each in its own goroutine, which
// ends when its child ends; the other calls run one after another once
// those are ready, so edits and commands never race each other.
func (e *executor) runAll(ctx context.Context, a *Agent, calls []openai.ToolCall) toolOutcome {
	results := make([]callResult, len(calls))
	ctx = withBatchWriters(ctx, a, calls)
	var together []int
	for i, call := range calls {
		if tool, ok := a.toolSet().Get(call.Function.Name); ok {
			if _, is := tool.(alongside); is {
				together = append(together, i)
			}
		}
	}
	order := stages(len(together))
	var wg sync.WaitGroup
	for k, i := range together {
		tool, known := e.announce(a, calls[i])
		wg.Add(1)
		go func() {
			defer wg.Done()
			st := order[k]
			st.wait()
			res, err := e.execute(withCall(ctx, toolCall{agent: a, id: calls[i].ID, stage: st}), a, tool, known, calls[i])
			st.release()
			results[i] = e.report(a, calls[i], res, err)
		}()
	}
	if len(order) > 0 {
		<-order[len(order)-1].done
	}
	for i, call := range calls {
		if !slices.Contains(together, i) {
			results[i] = e.runOne(withCall(ctx, toolCall{agent: a, id: call.ID}), a, call)
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
		if a.record != nil {
			a.record(m)
		}
	}
	return out
}

// runOne runs a single call and reports it with ToolStarted/ToolFinished.
func (e *executor) runOne(ctx context.Context, a *Agent, call openai.ToolCall) callResult {
	tool, known := e.announce(a, call)
	res, err := e.execute(ctx, a, tool, known, call)
	return e.report(a, call, res, err)
}

// announce emits ToolStarted and returns the tool, if the agent has it.
func (e *executor) announce(a *Agent, call openai.ToolCall) (tools.Tool, bool) {
	tool, known := a.toolSet().Get(call.Function.Name)
	title := call.Function.Name
	if known {
		title = tool.Title(json.RawMessage(call.Function.Arguments))
	}
	a.emit(event.ToolStarted{Meta: a.stamp(), CallID: call.ID, Name: call.Function.Name, Args: call.Function.Arguments, Title: title})
	return tool, known
}

// report emits ToolFinished and returns what the model receives.
func (e *executor) report(a *Agent, call openai.ToolCall, res tools.Result, err error) callResult {
	finished := event.ToolFinished{Meta: a.stamp(), CallID: call.ID, Name: call.Function.Name, Summary: res.Summary, Output: res.Output, Diff: res.Diff}
	content := res.Output
	var images []tools.Image
	if err == nil && len(res.Images) > 0 && a.takesImages() {
		images = res.Images
		content += imagesAttached
	}
	if err != nil {
		finished.IsError = true
		if denied, ok := errors.AsType[*deniedError](err); ok {
			finished.Denied, finished.DenyReason = true, denied.reason
		}
		finished.Output = err.Error()
		finished.Summary = firstLine(err.Error())
		content = "Error: " + err.Error()
	}
	a.emit(finished)
	if a.record != nil {
		// Written as soon as the call ends, not when its batch does: a
		// crash while a sibling still runs must not lose this result.
		a.record(toolMessage(call, content))
	}
	return callResult{content: content, usage: res.Usage, images: images}
}

// toolMessage is the history message carrying a call's result.
func toolMessage(call openai.ToolCall, content string) openai.ChatCompletionMessage {
	return openai.ChatCompletionMessage{Role: openai.ChatMessageRoleTool, ToolCallID: call.ID, Name: call.Function.Name, Content: content}
}

// execute checks a call and runs it. Every model mistake comes back as an
// error for the model, never a panic.
func (e *executor) execute(ctx context.Context, a *Agent, tool tools.Tool, known bool, call openai.ToolCall) (tools.Result, error) {
	name, args := call.Function.Name, json.RawMessage(call.Function.Arguments)
	if !known {
		return tools.Result{}, fmt.Errorf("tool %q is not available to this agent; its tools are: %s", name, strings.Join(a.toolSet().Names(), ", "))
	}
	if !json.Valid(args) {
		return tools.Result{}, fmt.Errorf("invalid JSON arguments for %s: %s; send one JSON object matching the tool's schema", name, clip(string(args), 200))
	}
	ctx = tools.WithReadable(ctx, a.skills.readable())
	decision, hookNotes, err := e.hooks.beforeTool(ctx, a, call)
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
	if _, own := tool.(alongside); own {
		res, err := tool.Run(ctx, args)
		if err == nil {
			res.Output = withHookNotes(res.Output, hooks.PreToolUse, hookNotes)
			e.hooks.afterTool(ctx, a, call, &res)
		}
		return res, err
	}
	if err := e.perms.authorizeTool(ctx, a, tool, call.ID, args, decision); err != nil {
		return tools.Result{}, err
	}
	if hold := e.perms.withhold(a, name); hold != nil {
		ctx = tools.WithWithhold(ctx, hold)
	}
	res, err := tool.Run(ctx, args)
	if err != nil {
		return tools.Result{}, err
	}
	if res.Todos != nil {
		a.emit(event.TodosUpdated{Meta: a.stamp(), Todos: res.Todos})
	}
	res.Output = truncateChars(res.Output, e.outputChars)
	extra, notes := e.context.forCall(args)
	if extra != "" {
		res.Output += "\n\n" + extra
	}
	for _, note := range notes {
		a.emit(event.Notice{Meta: a.stamp(), Text: note})
	}
	res.Output = withHookNotes(res.Output, hooks.PreToolUse, hookNotes)
	e.hooks.afterTool(ctx, a, call, &res)
	return res, nil
}

// truncateChars bounds s to max characters, saying how much was cut.
func truncateChars(s string, max int) string {
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
