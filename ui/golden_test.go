package ui

import (
	"fmt"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// scenarios bring a fresh UI into each main state.
var scenarios = map[string]func(t *testing.T, d *driver){
	"empty": func(*testing.T, *driver) {},
	"streaming": func(t *testing.T, d *driver) {
		d.emit(
			event.TurnStarted{Meta: mainMeta, Prompt: "explain the agent loop"},
			event.StepStarted{Meta: mainMeta, Step: 1, Max: 50},
			event.UsageReported{Meta: mainMeta, Request: event.Usage{PromptTokens: 9000, CompletionTokens: 600, TotalTokens: 9600, Cost: 0.0123, CostKnown: true, Requests: 1},
				Total: event.Usage{TotalTokens: 9600, Cost: 0.0123, CostKnown: true, Requests: 1}},
			event.TextDelta{Meta: mainMeta, Text: "The loop streams a completion, "},
			event.TextDelta{Meta: mainMeta, Text: "collects tool calls by index, runs them and appends the results.\n\nThen it "},
			event.TextDelta{Meta: mainMeta, Text: "asks again until the model stops calling tools"},
		)
	},
	"tools": func(t *testing.T, d *driver) {
		d.emit(
			event.TurnStarted{Meta: mainMeta, Prompt: "rename Run to Loop in engine/loop.go"},
			event.StepStarted{Meta: mainMeta, Step: 2, Max: 50},
			event.MessageDone{Meta: mainMeta, Text: "I'll read the file first."},
			event.ToolStarted{Meta: mainMeta, CallID: "c1", Name: "read_file", Title: "read_file engine/loop.go"},
			event.ToolFinished{Meta: mainMeta, CallID: "c1", Name: "read_file", Summary: "120 lines", Output: "package engine\n\nfunc Run() {}\n"},
			event.ToolStarted{Meta: mainMeta, CallID: "c2", Name: "edit_file", Title: "edit_file engine/loop.go"},
			event.ToolFinished{Meta: mainMeta, CallID: "c2", Name: "edit_file", Summary: "1 change",
				Diff: "--- a/engine/loop.go\n+++ b/engine/loop.go\n@@ -3 +3 @@\n-func Run() {}\n+func Loop() {}\n"},
			event.ToolStarted{Meta: mainMeta, CallID: "c3", Name: "run_command", Title: "run_command go build ./..."},
			event.ToolFinished{Meta: mainMeta, CallID: "c3", Name: "run_command", Summary: "exit 1", IsError: true,
				Output: "engine/agent.go:12: undefined: Run\nengine/agent.go:40: undefined: Run\nengine/session.go:7: undefined: Run\nengine/task.go:9: undefined: Run\n"},
			event.ToolStarted{Meta: mainMeta, CallID: "c4", Name: "grep", Title: "grep Run\\( engine/"},
		)
	},
	"approval": func(t *testing.T, d *driver) {
		req := &event.ApprovalRequest{ID: "p1", Kind: event.ApproveTool, Tool: "edit_file",
			Always: []string{"edit_file(engine/loop.go)"}, AlwaysFolder: []string{"edit_file(engine/**)"},
			AlwaysLabel: "engine/loop.go", AlwaysFolderLabel: "engine/**",
			Preview: "--- a/engine/loop.go\n+++ b/engine/loop.go\n@@ -3,2 +3,2 @@\n-func Run() {}\n+func Loop() {}\n // loop\n"}
		newRequest(t, req)
		d.emit(
			event.TurnStarted{Meta: mainMeta, Prompt: "rename Run to Loop"},
			event.ToolStarted{Meta: mainMeta, CallID: "c1", Name: "edit_file", Title: "edit_file engine/loop.go"},
			event.ApprovalRequested{Meta: mainMeta, Request: req},
		)
	},
	"panes": func(t *testing.T, d *driver) {
		d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "what is here"}, event.MessageDone{Meta: mainMeta, Text: "I'll split this."})
		for _, k := range []kid{explore, review, finder} {
			d.spawn(k)
		}
		d.keys("tab", "tab")
	},
	"quitask": func(t *testing.T, d *driver) {
		d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "what is here"}, event.MessageDone{Meta: mainMeta, Text: "I'll split this."})
		d.spawn(explore)
		d.spawn(review)
		d.typeText("/quit")
		d.keys("enter")
	},
	"quitdetach": func(t *testing.T, d *driver) {
		d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "what is here"}, event.MessageDone{Meta: mainMeta, Text: "I'll split this."})
		for _, k := range []kid{explore, review} {
			started := k.started()
			started.Detachable, started.Runner = true, "process"
			d.emit(append([]event.Event{k.taskCall(), started}, k.working()...)...)
		}
		d.typeText("/quit")
		d.keys("enter")
	},
	"delegation": func(t *testing.T, d *driver) {
		d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "what is here"}, event.MessageDone{Meta: mainMeta, Text: "I'll split this."})
		d.delegate(explore)
		d.delegate(review)
	},
	"error": func(t *testing.T, d *driver) {
		d.emit(
			event.TurnStarted{Meta: mainMeta, Prompt: "summarise the repo"},
			event.TextDelta{Meta: mainMeta, Text: "Looking at the"},
			event.ErrorOccurred{Meta: mainMeta, Message: "stream completion: 429 Too Many Requests: rate limit reached for gpt-4.1, retry in 20s"},
			event.TurnEnded{Meta: mainMeta, Status: event.StatusFailed},
		)
	},
}

// TestGoldenViews compares the plain text of each main state with
// testdata/TestGoldenViews/*.golden; -update rewrites them.
func TestGoldenViews(t *testing.T) {
	for name, scenario := range scenarios {
		for _, width := range []int{60, 80, 120} {
			t.Run(fmt.Sprintf("%s_%d", name, width), func(t *testing.T) {
				d := newDriver(t, width, 24)
				scenario(t, d)
				d.checkFits()
				golden.RequireEqual(t, []byte(d.screen()+"\n"))
			})
		}
	}
}
