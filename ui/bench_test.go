package ui

import (
	"fmt"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
)

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
func streamFrame(m Model, i int) Model {
	batch := eventsMsg{event.TextDelta{Meta: mainMeta, Text: "more words of the answer "}}
	if i%20 == 19 {
		batch = append(batch, event.TextDelta{Meta: mainMeta, Text: "\n"})
	}
	if i%200 == 199 {
		batch = append(batch, event.MessageDone{Meta: mainMeta})
	}
	model, _ := m.Update(batch)
	model, _ = model.(Model).Update(frameMsg{}) // the frame the delta waits for
	return model.(Model)
}

// BenchmarkViewLongHistory measures a streaming frame (one delta applied,
// the screen drawn) with 100 and 1,000 messages of history: the cost must
// not grow with the history.
func BenchmarkViewLongHistory(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			m := historyModel(b, n)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				m = streamFrame(m, i)
				_ = m.View()
			}
		})
	}
}

// BenchmarkApplyTextDelta measures taking one text delta into the model,
// without drawing.
func BenchmarkApplyTextDelta(b *testing.B) {
	m := historyModel(b, 1000)
	ev := eventsMsg{event.TextDelta{Meta: mainMeta, Text: "more words of the answer "}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		model, _ := m.Update(ev)
		m = model.(Model)
	}
}

// eightPanes is a model with eight children streaming at once.
func eightPanes(b *testing.B) (Model, []kid) {
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
	m = model.(Model)
	_ = m.View()
	return m, kids
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
	m, kids := eightPanes(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		model, _ := m.Update(childDelta(kids[i%len(kids)], i))
		model, _ = model.(Model).Update(frameMsg{})
		m = model.(Model)
		_ = m.View()
	}
}

// BenchmarkEightPanesDeltaBetweenFrames measures what a delta costs when
// it arrives between two frames: it is applied, and the view Bubble Tea
// asks for is the cached one.
func BenchmarkEightPanesDeltaBetweenFrames(b *testing.B) {
	m, kids := eightPanes(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		model, _ := m.Update(childDelta(kids[i%len(kids)], i))
		m = model.(Model)
		_ = m.View()
	}
}

// BenchmarkStreamingOneLongParagraph measures a frame of an answer that
// is one paragraph of 300 words, streamed three words a frame (a paced
// reply read once a frame), from its start to its end: the open line
// grows all the while.
func BenchmarkStreamingOneLongParagraph(b *testing.B) {
	m := historyModel(b, 10)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%100 == 99 {
			model, _ := m.Update(eventsMsg{event.MessageDone{Meta: mainMeta}})
			m = model.(Model)
		}
		model, _ := m.Update(eventsMsg{event.TextDelta{Meta: mainMeta, Text: fmt.Sprintf("word%d word%d word%d ", 3*i, 3*i+1, 3*i+2)}})
		model, _ = model.(Model).Update(frameMsg{})
		m = model.(Model)
		_ = m.View()
	}
}
