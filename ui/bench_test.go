package ui

import (
	"fmt"
	"io"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/screen"
)

// running is m as the running program holds it: updated in place
// through its pointer and drawn by a screen, here one writing nowhere,
// so a benchmark counts what a frame costs the program, diff included.
func running(m Model) *onScreen {
	scr := screen.New(io.Discard, screen.Modes{})
	scr.Open()
	scr.Resize(m.width, m.height)
	o := &onScreen{Model: m, screen: scr}
	o.View()
	return o
}

// historyModel builds a UI at 120×40 whose conversation holds n messages
// (prompts, Markdown answers and tool calls) and one streaming answer.
func historyModel(b *testing.B, n int) Model {
	b.Helper()
	s := newFakeSession()
	m := New(s, Options{Workspace: "/work/app", Theme: "dark", ContextWindow: 128000})
	model, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m = model.(Model)
	for i := 0; i < n; i += 3 {
		m.conv.Apply(event.TurnStarted{Meta: mainMeta, Prompt: fmt.Sprintf("question %d about the loop", i)})
		m.conv.Apply(event.MessageDone{Meta: mainMeta, Text: fmt.Sprintf("Answer %d with **bold** text,\n\n```go\nfunc f() {}\n```\n\n- one\n- two", i)})
		m.conv.Apply(event.ToolStarted{Meta: mainMeta, CallID: fmt.Sprint(i), Name: "read_file", Title: "read_file engine/loop.go"})
		m.conv.Apply(event.ToolFinished{Meta: mainMeta, CallID: fmt.Sprint(i), Name: "read_file", Summary: "120 lines", Output: "package engine\n"})
	}
	m.conv.Apply(event.TurnStarted{Meta: mainMeta, Prompt: "and now?"})
	model, _ = m.Update(eventsMsg{event.TextDelta{Meta: mainMeta, Text: "Streaming starts "}})
	m = model.(Model)
	_ = m.View() // draw the visible history once, as the first frame would
	return m
}

// streamFrame applies one delta and draws the frame it causes. Every 200
// deltas the message ends and a new one starts, so the streaming message
// stays the size of a real answer.
func streamFrame(o *onScreen, i int) {
	batch := eventsMsg{event.TextDelta{Meta: mainMeta, Text: "more words of the answer "}}
	if i%20 == 19 {
		batch = append(batch, event.TextDelta{Meta: mainMeta, Text: "\n"})
	}
	if i%200 == 199 {
		batch = append(batch, event.MessageDone{Meta: mainMeta})
	}
	o.Update(batch)
	o.Update(frameMsg{}) // the frame the delta waits for
	o.View()
}

// BenchmarkViewLongHistory measures a streaming frame (one delta applied,
// the screen drawn) with 100 and 1,000 messages of history: the cost must
// not grow with the history.
func BenchmarkViewLongHistory(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			o := running(historyModel(b, n))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				streamFrame(o, i)
			}
		})
	}
}

// BenchmarkApplyTextDelta measures taking one text delta into the model,
// without drawing.
func BenchmarkApplyTextDelta(b *testing.B) {
	o := running(historyModel(b, 1000))
	ev := eventsMsg{event.TextDelta{Meta: mainMeta, Text: "more words of the answer "}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		o.Update(ev)
	}
}

// eightPanes is a model with eight children streaming at once.
func eightPanes(b *testing.B) (*onScreen, []kid) {
	m := historyModel(b, 100)
	var kids []kid
	for i := range 8 {
		k := kid{fmt.Sprintf("explore-%d", i+1), "Explore", fmt.Sprintf("part %d of the tree", i+1)}
		kids = append(kids, k)
		batch := eventsMsg{k.taskCall(), k.started()}
		batch = append(batch, k.working()...)
		model, _ := m.Update(batch)
		m = model.(Model)
	}
	model, _ := m.Update(frameMsg{})
	return running(model.(Model)), kids
}

// childDelta is the i-th delta of a child, a line break every 20.
func childDelta(k kid, i int) eventsMsg {
	text := "more words of the child "
	if i%20 == 19 {
		text += "\n"
	}
	return eventsMsg{event.TextDelta{Meta: k.meta(0), Text: text}}
}

// BenchmarkViewEightPanes measures a frame with eight children streaming
// at once: one delta applied to one of them, the whole screen drawn.
func BenchmarkViewEightPanes(b *testing.B) {
	o, kids := eightPanes(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		o.Update(childDelta(kids[i%len(kids)], i))
		o.Update(frameMsg{})
		o.View()
	}
}

// BenchmarkEightPanesDeltaBetweenFrames measures what a delta costs when
// it arrives between two frames: it is applied, and the view Bubble Tea
// asks for is the cached one.
func BenchmarkEightPanesDeltaBetweenFrames(b *testing.B) {
	o, kids := eightPanes(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		o.Update(childDelta(kids[i%len(kids)], i))
		o.View()
	}
}

// BenchmarkStreamingOneLongParagraph measures a frame of an answer that
// is one paragraph of 300 words, streamed three words a frame (a paced
// reply read once a frame), from its start to its end: the open line
// grows all the while.
func BenchmarkStreamingOneLongParagraph(b *testing.B) {
	o := running(historyModel(b, 10))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%100 == 99 {
			o.Update(eventsMsg{event.MessageDone{Meta: mainMeta}})
		}
		o.Update(eventsMsg{event.TextDelta{Meta: mainMeta, Text: fmt.Sprintf("word%d word%d word%d ", 3*i, 3*i+1, 3*i+2)}})
		o.Update(frameMsg{})
		o.View()
	}
}

// BenchmarkEightPanesOneLongParagraph measures a frame with eight
// children each streaming one paragraph of 300 words (as the perf case's
// children do), three words a frame to one of them in turn: the last
// line of every pane grows all the while.
func BenchmarkEightPanesOneLongParagraph(b *testing.B) {
	o, kids := eightPanes(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := kids[i%len(kids)]
		if i%800 == 799 { // every child's paragraph is 300 words: start new ones
			for _, k := range kids {
				o.Update(eventsMsg{event.MessageDone{Meta: k.meta(0)}})
			}
		}
		o.Update(eventsMsg{event.TextDelta{Meta: k.meta(0), Text: fmt.Sprintf("word%d word%d word%d ", 3*i, 3*i+1, 3*i+2)}})
		o.Update(frameMsg{})
		o.View()
	}
}
