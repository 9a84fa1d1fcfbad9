package llm_test

import (
	"context"
	"errors"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"
	"go.uber.org/goleak"

	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// hang is one way an endpoint stops talking. Each script closes reached
// when it starts to hang and returns when the client goes away.
type hang struct {
	name    string
	script  func(w *llmtest.Writer, reached chan<- struct{})
	setting string // the timeout that must end it; "" means the reply is whole
	content string // what the partial reply holds
}

var hangs = []hang{
	{"no headers ever", func(w *llmtest.Writer, reached chan<- struct{}) {
		close(reached)
		<-w.Context().Done()
	}, llm.SettingFirstByte, ""},
	{"headers then nothing", func(w *llmtest.Writer, reached chan<- struct{}) {
		w.Headers()
		close(reached)
		<-w.Context().Done()
	}, llm.SettingFirstByte, ""},
	{"a stream that stops mid-text", func(w *llmtest.Writer, reached chan<- struct{}) {
		w.Chunk(roleChunk)
		w.Chunk(text("Hel"))
		close(reached)
		<-w.Context().Done()
	}, llm.SettingIdle, "Hel"},
	{"keep-alives forever after a first event", func(w *llmtest.Writer, reached chan<- struct{}) {
		w.Chunk(text("Hel"))
		close(reached)
		// Comments, blank lines and empty data events, paced so the
		// client reads each; without the guard they would keep the
		// stream alive until the loop ends and the reply is cut off.
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for i := range 20000 {
			select {
			case <-w.Context().Done():
				return
			case <-tick.C:
			}
			switch i % 3 {
			case 0:
				w.Raw(": OPENROUTER PROCESSING")
			case 1:
				w.Raw("")
			default:
				w.Chunk(`{"choices":[{"index":0,"delta":{}}]}`)
			}
		}
	}, llm.SettingIdle, "Hel"},
	{"a stall inside the first event", func(w *llmtest.Writer, reached chan<- struct{}) {
		w.Partial(`data: {"choices":[{"index":0,"delta":{"content":"Hel`)
		close(reached)
		<-w.Context().Done()
	}, llm.SettingFirstByte, ""},
	{"a stall inside an event after text", func(w *llmtest.Writer, reached chan<- struct{}) {
		w.Chunk(text("Hel"))
		w.Partial(`data: {"choices":[{"index":0,"delta":{"content":"lo`)
		close(reached)
		<-w.Context().Done()
	}, llm.SettingIdle, "Hel"},
	{"no [DONE], the stream stays open", func(w *llmtest.Writer, reached chan<- struct{}) {
		w.Chunk(roleChunk)
		w.Chunk(text("Hello"))
		w.Chunk(stopChunk)
		w.Chunk(usageOnly)
		close(reached)
		<-w.Context().Done()
	}, "", "Hello"},
}

// hangServer serves h, reporting on the returned channel when it hangs.
func hangServer(t *testing.T, h hang) (*llmtest.Server, <-chan struct{}) {
	reached := make(chan struct{})
	srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) {
		h.script(w, reached)
	})
	return srv, reached
}

var hi = openai.ChatCompletionRequest{Model: "m", Messages: []openai.ChatCompletionMessage{{Role: "user", Content: "hi"}}}

// Each hang shape ends with the timeout that bounds it, naming the
// setting, and keeps what was said; a stream that finished but never
// closed is a whole reply.
func TestHungEndpointsTimeOut(t *testing.T) {
	for _, h := range hangs {
		t.Run(h.name, func(t *testing.T) {
			// Only the timeout the hang must meet is tiny: a first byte
			// slowed by a loaded machine must not end a case that waits
			// for the idle limit, nor a whole reply.
			tiny := llm.Timeouts{Connect: time.Second, FirstByte: time.Minute, Idle: 30 * time.Millisecond}
			if h.setting == llm.SettingFirstByte {
				tiny.FirstByte, tiny.Idle = 30*time.Millisecond, time.Minute
			}
			leaks := goleak.IgnoreCurrent()
			srv, _ := hangServer(t, h)
			start := time.Now()
			resp, err := llm.Stream(context.Background(), srv.ClientWith(tiny), hi, llm.Handler{})
			t.Logf("control regained after %v (timeouts %v)", time.Since(start), tiny.Idle)
			if h.setting == "" {
				if err != nil || resp.FinishReason != "stop" || !resp.HasUsage {
					t.Fatalf("got %+v, %v; want the whole reply with usage", resp, err)
				}
			} else {
				var te *llm.TimeoutError
				if !errors.As(err, &te) || te.Setting != h.setting {
					t.Fatalf("error = %#v (%v), want a timeout of %s", err, err, h.setting)
				}
			}
			if resp.Content != h.content {
				t.Errorf("content = %q, want %q", resp.Content, h.content)
			}
			srv.Close()
			goleak.VerifyNone(t, leaks)
		})
	}
}

// However long the timeouts, cancelling (esc) ends every hang at once
// with ctx.Err() itself.
func TestHungEndpointsCancel(t *testing.T) {
	long := llm.Timeouts{FirstByte: time.Hour, Idle: time.Hour}
	for _, h := range hangs {
		t.Run(h.name, func(t *testing.T) {
			leaks := goleak.IgnoreCurrent()
			srv, reached := hangServer(t, h)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var cancelled time.Time
			go func() { // exits once the server hangs
				<-reached
				cancelled = time.Now()
				cancel()
			}()
			_, err := llm.Stream(ctx, srv.ClientWith(long), hi, llm.Handler{})
			t.Logf("cancel took %v", time.Since(cancelled))
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("error = %#v, want context.Canceled", err)
			}
			srv.Close()
			goleak.VerifyNone(t, leaks)
		})
	}
}

// Reply data moves the deadline: once text flows, the first-byte limit no
// longer applies, only the idle one.
func TestProgressEndsTheFirstByteWindow(t *testing.T) {
	got := make(chan struct{})
	firstByte := 100 * time.Millisecond
	srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) {
		w.Chunk(text("a"))
		select {
		case <-got:
		case <-w.Context().Done():
			return
		}
		select { // wait out the first-byte limit several times over
		case <-time.After(5 * firstByte):
		case <-w.Context().Done():
			return
		}
		w.Chunk(text("b"))
		w.Chunk(stopChunk)
		w.Done()
	})
	once := false
	h := llm.Handler{OnText: func(string) {
		if !once {
			once = true
			close(got)
		}
	}}
	resp, err := llm.Stream(context.Background(), srv.ClientWith(llm.Timeouts{FirstByte: firstByte, Idle: time.Hour}), hi, h)
	if err != nil || resp.Content != "ab" {
		t.Fatalf("got %q, %v; want the whole reply", resp.Content, err)
	}
}

// An idle limit shorter than the first-byte one takes over as soon as
// text arrives, rather than when the first-byte limit would have run out.
func TestIdleShorterThanFirstByte(t *testing.T) {
	srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) {
		w.Chunk(text("Hel"))
		select { // ends the reply cut off if the idle limit never fires
		case <-w.Context().Done():
		case <-time.After(10 * time.Second):
		}
	})
	resp, err := llm.Stream(context.Background(), srv.ClientWith(llm.Timeouts{FirstByte: time.Hour, Idle: 30 * time.Millisecond}), hi, llm.Handler{})
	var te *llm.TimeoutError
	if !errors.As(err, &te) || te.Setting != llm.SettingIdle || resp.Content != "Hel" {
		t.Fatalf("got %q, %v; want the idle timeout", resp.Content, err)
	}
}
