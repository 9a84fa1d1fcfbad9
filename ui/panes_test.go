package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
)

func TestThreeChildrenDrawnLiveAtOnce(t *testing.T) {
	d := newDriver(t, 120, 40)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "what is here"})
	for _, k := range []kid{explore, review, finder} {
		d.spawn(k)
	}
	screen := d.screen()
	for _, k := range []kid{explore, review, finder} {
		for _, want := range []string{"[" + k.typ + "] " + k.desc, "read_file " + k.id + ".go", "step 2/15"} {
			if !strings.Contains(screen, want) {
				t.Errorf("the pane of %s lacks %q:\n%s", k.id, want, screen)
			}
		}
	}
	if !strings.Contains(screen, "sub-agents (3)") {
		t.Errorf("no rule over the three panes:\n%s", screen)
	}
	// The panes sit between the conversation and the input, in request order.
	first, second, third := strings.Index(screen, explore.desc+" ..."), strings.Index(screen, review.desc+" ..."), strings.Index(screen, finder.desc+" ...")
	if first < 0 || first > second || second > third || third > strings.Index(screen, "Ask baton anything") {
		t.Errorf("panes out of order or below the input:\n%s", screen)
	}
	d.checkFits()
	d.emit(finder.working()[5:]...) // one more delta reaches its pane
	if !d.m.agents.Running() || !d.m.clock.ticking {
		t.Error("the clock does not run while children run")
	}
}

func TestQueuedChildShowsQueued(t *testing.T) {
	d := newDriver(t, 100, 30)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"}, explore.taskCall(), event.AgentQueued{Meta: explore.meta(0), Position: 1})
	if !strings.Contains(d.screen(), "[Explore] map the project layout ... queued") {
		t.Errorf("a queued child does not say so:\n%s", d.screen())
	}
}

func TestPanesShrinkToHeadersWhenSpaceIsShort(t *testing.T) {
	d := newDriver(t, 80, 20)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
	var kids []kid
	for i := range 8 {
		k := kid{fmt.Sprintf("explore-%d", i+1), "Explore", fmt.Sprintf("part %d of the tree", i+1)}
		kids = append(kids, k)
		d.spawn(k)
	}
	d.checkFits()
	screen := d.screen()
	if !strings.Contains(screen, "more running") || strings.Contains(screen, "grep -n TODO") {
		t.Fatalf("eight panes in a short terminal are not cut to headers and a count:\n%s", screen)
	}
	for range kids {
		d.keys("tab") // the window follows the focus down the list
		if p := d.m.agents.Focused(); p == nil || !strings.Contains(d.screen(), "▌") {
			t.Fatalf("the focused pane is not on screen:\n%s", d.screen())
		}
	}
	if !strings.Contains(d.screen(), "part 8 of the tree") {
		t.Errorf("focusing the last pane did not scroll to it:\n%s", d.screen())
	}
	d.keys("tab")
	if d.m.agents.Focused() != nil || !d.m.input.Focused() {
		t.Error("tab after the last pane does not come back to the input")
	}
}

func TestFoldEachStatusIntoTheConversation(t *testing.T) {
	cases := []struct {
		status event.Status
		reason string
		want   string
	}{
		{event.StatusCompleted, "", "✓ #1 [Explore] map the project layout - done (8 tools, 5.1s, 3.2k tok, $0.004)"},
		{event.StatusFailed, "429 rate limited", "✗ #1 [Explore] map the project layout - failed (8 tools, 5.1s, 3.2k tok, $0.004): 429 rate limited"},
		{event.StatusTimedOut, "timed out after 2m0s", "⏱ #1 [Explore] map the project layout - timed out"},
		{event.StatusCancelled, "stopped by the person", "■ #1 [Explore] map the project layout - stopped"},
		{event.StatusDenied, "too costly", "⊘ #1 [Explore] map the project layout - denied"},
		{event.StatusMaxSteps, "", "◐ #1 [Explore] map the project layout - max steps"},
		{event.StatusInterrupted, "", "… #1 [Explore] map the project layout - interrupted"},
	}
	for _, c := range cases {
		t.Run(string(c.status), func(t *testing.T) {
			d := newDriver(t, 120, 30)
			d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
			d.spawn(explore)
			d.spawn(review)
			d.finish(explore, c.status, c.reason)
			d.emit(event.TextDelta{Meta: mainMeta, Text: "Summing up."})
			conv := strings.Join(d.m.conv.View(120, 30), "\n")
			plain := stripped(conv)
			at := strings.Index(plain, c.want)
			if at < 0 {
				t.Fatalf("the conversation lacks %q:\n%s", c.want, plain)
			}
			if !(at < strings.Index(plain, "task [Review]") && at < strings.Index(plain, "Summing up.")) {
				t.Errorf("the summary is not where the delegation was:\n%s", plain)
			}
			if live := d.m.agents.Live(); len(live) != 1 || live[0].ID() != event.AgentID(review.id) {
				t.Errorf("the finished pane stays in the live area: %d live", len(live))
			}
		})
	}
}

func TestResizeWhileThreePanesStream(t *testing.T) {
	d := newDriver(t, 120, 40)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
	for _, k := range []kid{explore, review, finder} {
		d.spawn(k)
	}
	d.keys("tab")
	sizes := [][2]int{{120, 40}, {70, 20}, {40, 12}, {200, 60}, {20, 6}, {1, 1}, {80, 24}}
	for i, size := range sizes {
		d.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		for _, k := range []kid{explore, review, finder} {
			d.emit(event.TextDelta{Meta: k.meta(0), Text: fmt.Sprintf(" and %s %d with a long line %s\n", k.id, i, strings.Repeat("漢字", 40))})
		}
		d.checkFits()
	}
}

// Children cut to a count while they await approval are not said to be
// running.
func TestHiddenPanesCountSaysNotRunningWhileAwaiting(t *testing.T) {
	d := newDriver(t, 60, 20)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
	for i := range 3 {
		d.delegate(kid{fmt.Sprintf("explore-%d", i+1), "Explore", fmt.Sprintf("part %d", i+1)})
	}
	d.checkFits()
	screen := d.screen()
	if strings.Contains(screen, "running") || !strings.Contains(screen, "more · tab to move through them") {
		t.Fatalf("three children awaiting approval:\n%s", screen)
	}
}

// A delegation card keeps its title in sight in a short terminal that
// also shows the todo list and the agents area.
func TestCardTitleVisibleWithTodosAndPanes(t *testing.T) {
	d := newDriver(t, 60, 20)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"}, event.TodosUpdated{Meta: mainMeta, Todos: threeTodos})
	for i := range 3 {
		d.delegate(kid{fmt.Sprintf("explore-%d", i+1), "Explore", fmt.Sprintf("part %d", i+1)})
	}
	d.checkFits()
	if screen := d.screen(); !strings.Contains(screen, "Delegate? [Explore] part 1") || !strings.Contains(screen, "y approve") {
		t.Fatalf("the card's title or keys are out of sight:\n%s", screen)
	}
}

// A finished child whose change waits for review: the idle footer says
// tab reaches it, and on it the footer offers enter to review, not a
// transcript or a stop that no longer applies.
func TestFooterLeadsToAPendingReview(t *testing.T) {
	d := pendingReview(t, 120)
	footer := func() string { lines := strings.Split(d.screen(), "\n"); return lines[len(lines)-1] }
	if !strings.Contains(footer(), "tab review changes") {
		t.Errorf("idle footer with a change pending review: %q", footer())
	}
	d.keys("tab")
	if f := footer(); !strings.Contains(f, "enter review") || strings.Contains(f, "stop") || strings.Contains(f, "transcript") {
		t.Errorf("footer on the folded child: %q", f)
	}
	d.keys("?")
	if s := d.screen(); !strings.Contains(s, "review") || strings.Contains(s, "stop agent") {
		t.Errorf("all keys on the folded child:\n%s", s)
	}
}

// pendingReview is a UI whose one child ended with a change waiting for
// review.
func pendingReview(t *testing.T, width int) *driver {
	d := newDriver(t, width, 30)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
	k := kid{"general-purpose-1", "General-purpose", "warmer greeting"}
	d.spawn(k)
	d.emit(event.AgentFinished{Meta: k.meta(6 * time.Second), Status: event.StatusCompleted, Text: "done", Result: "done",
		Change: &event.Change{Added: 1, Removed: 1, Files: 1, State: event.ChangePending}},
		event.ToolFinished{Meta: mainMeta, CallID: "call-" + k.id, Name: child.TaskToolName, Summary: "completed"},
		event.TurnEnded{Meta: mainMeta, Status: event.StatusCompleted})
	return d
}

// In a narrow terminal the fold line keeps "pending review" and lets
// the stats go.
func TestFoldLineKeepsPendingReviewWhenNarrow(t *testing.T) {
	for _, width := range []int{80, 100} {
		d := pendingReview(t, width)
		if s := d.screen(); !strings.Contains(s, "+1 −1 in 1 file, pending review") {
			t.Errorf("%d columns:\n%s", width, s)
		}
		d.checkFits()
	}
}
