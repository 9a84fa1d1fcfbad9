package llm

import (
	"context"
	"io"
	"testing"
	"time"
)

// fakeClock is a clock that moves only when the body sleeps or a read
// waits, so gathering is tested without waiting.
type fakeClock struct {
	t      time.Time
	sleeps []time.Duration
}

func (c *fakeClock) now() time.Time { return c.t }

func (c *fakeClock) sleep(ctx context.Context, end time.Time) {
	c.sleeps = append(c.sleeps, end.Sub(c.t))
	if ctx.Err() == nil {
		c.t = end
	}
}

// arrival is one read of the script: how long the endpoint made it wait
// and how many bytes it returned.
type arrival struct {
	wait time.Duration
	n    int
}

// scriptedBody returns its chunks one read at a time, moving the clock
// by each chunk's wait.
type scriptedBody struct {
	clock  *fakeClock
	chunks []arrival
	reads  int
}

func (s *scriptedBody) Read(p []byte) (int, error) {
	if s.reads == len(s.chunks) {
		return 0, io.EOF
	}
	c := s.chunks[s.reads]
	s.reads++
	s.clock.t = s.clock.t.Add(c.wait)
	return min(c.n, len(p)), nil
}

func (s *scriptedBody) Close() error { return nil }

// gathering builds a body over chunks on a fake clock that starts on a
// window boundary.
func gathering(g Gather, chunks ...arrival) (*gatheringBody, *fakeClock, *int) {
	clock := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	waits := 0
	b := &gatheringBody{
		rc: &scriptedBody{clock: clock, chunks: chunks}, ctx: context.Background(), gather: g, clock: clock,
		onWait: func() { waits++ },
	}
	return b, clock, &waits
}

// readAll reads b to its end with a buffer of size bytes.
func readAll(t *testing.T, b *gatheringBody, size int) {
	t.Helper()
	buf := make([]byte, size)
	for {
		if _, err := b.Read(buf); err == io.EOF {
			return
		} else if err != nil {
			t.Fatal(err)
		}
	}
}

// A stream whose chunks come every 10 ms is read once per window after
// the first two chunks, each read waiting for the next window boundary.
func TestFastStreamWaitsForTheWindow(t *testing.T) {
	b, clock, waits := gathering(Gather{Most: 32 * time.Millisecond},
		arrival{wait: 500 * time.Millisecond, n: 100}, // the first byte, after the model thought
		arrival{wait: 10 * time.Millisecond, n: 100},  // chunks come every 10 ms: fast
		arrival{n: 300}, arrival{n: 300}, arrival{n: 300},
	)
	readAll(t, b, 4096)
	if len(clock.sleeps) != 4 {
		t.Fatalf("slept %v, want once before each of the four reads after the stream turned fast", clock.sleeps)
	}
	for _, d := range clock.sleeps {
		if d <= 0 || d > 32*time.Millisecond {
			t.Errorf("slept %v, want up to the next boundary of a 32 ms window", d)
		}
	}
	if *waits != 6 {
		t.Errorf("onWait called %d times, want once before each of the 6 reads", *waits)
	}
}

// A fast stream that a tool call hurried (Handler.OnToolBegin) is read
// as it comes from then on: the reads after it wait for no window.
func TestHurriedStreamStopsGathering(t *testing.T) {
	hurried := false
	b, clock, _ := gathering(Gather{Most: 32 * time.Millisecond},
		arrival{wait: 500 * time.Millisecond, n: 100},
		arrival{wait: 10 * time.Millisecond, n: 100},
		arrival{n: 300}, arrival{n: 300}, arrival{n: 300},
	)
	b.hurried = &hurried
	buf := make([]byte, 4096)
	for range 3 {
		if _, err := b.Read(buf); err != nil {
			t.Fatal(err)
		}
	}
	if len(clock.sleeps) != 1 {
		t.Fatalf("slept %v before the hurry, want once: the stream turned fast", clock.sleeps)
	}
	hurried = true
	readAll(t, b, 4096)
	if len(clock.sleeps) != 1 {
		t.Fatalf("slept %v, want no sleep once hurried", clock.sleeps)
	}
}

// A slow stream (chunks further apart than the window) is read as it
// comes: gathering would only add a wake-up.
func TestSlowStreamIsReadAsItComes(t *testing.T) {
	b, clock, _ := gathering(Gather{Most: 32 * time.Millisecond},
		arrival{wait: 200 * time.Millisecond, n: 100},
		arrival{wait: 80 * time.Millisecond, n: 100},
		arrival{wait: 90 * time.Millisecond, n: 100},
	)
	readAll(t, b, 4096)
	if len(clock.sleeps) != 0 {
		t.Fatalf("slept %v for a stream slower than the window", clock.sleeps)
	}
}

// A stream that slows down after being fast stops gathering: the read
// after the sleep had to wait a whole window more.
func TestStreamThatSlowsDownStopsGathering(t *testing.T) {
	b, clock, _ := gathering(Gather{Most: 32 * time.Millisecond},
		arrival{wait: 100 * time.Millisecond, n: 100},
		arrival{wait: 5 * time.Millisecond, n: 100},  // fast
		arrival{wait: 400 * time.Millisecond, n: 50}, // after the sleep, the model paused
		arrival{wait: 300 * time.Millisecond, n: 50},
	)
	readAll(t, b, 4096)
	if len(clock.sleeps) != 1 {
		t.Fatalf("slept %v, want only once, before the read that found the pause", clock.sleeps)
	}
}

// A read that fills the buffer is followed by another at once: more is
// waiting, and holding it back would only delay it.
func TestFullBufferIsReadOn(t *testing.T) {
	b, clock, _ := gathering(Gather{Most: 32 * time.Millisecond},
		arrival{wait: 100 * time.Millisecond, n: 100},
		arrival{wait: 5 * time.Millisecond, n: 100}, // fast
		arrival{n: 4096}, arrival{n: 4096}, arrival{n: 10},
	)
	readAll(t, b, 4096)
	if len(clock.sleeps) != 2 {
		t.Fatalf("slept %v, want twice, before the first full read and before the end: never after a read that filled the buffer", clock.sleeps)
	}
}

// With a share, the window is bounded by the stream's age: a young stream
// is read as it comes, an older one gathers.
func TestWindowGrowsWithTheStreamsAge(t *testing.T) {
	g := Gather{Most: 32 * time.Millisecond, Share: 64}
	b, _, _ := gathering(g)
	b.clock = &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	if w := b.window(); w != 0 {
		t.Fatalf("window before any data: %v, want 0", w)
	}
	for _, c := range []struct {
		age  time.Duration
		want time.Duration
	}{
		{100 * time.Millisecond, time.Millisecond},
		{640 * time.Millisecond, 10 * time.Millisecond},
		{time.Second, 15 * time.Millisecond},
		{10 * time.Second, 32 * time.Millisecond},
	} {
		b.began = b.clock.now().Add(-c.age)
		if w := b.window(); w != c.want {
			t.Errorf("window at %v: %v, want %v", c.age, w, c.want)
		}
	}
}

// A cancelled request ends the sleep: a stopped child does not wait out
// its window.
func TestCancelEndsTheGatherSleep(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	done := make(chan struct{})
	go func() {
		realClock{}.sleep(ctx, time.Now().Add(time.Hour))
		close(done)
	}()
	<-done
}

// A finish reason marks the reply hurried: the usage and [DONE] that
// follow it are read as they come (a provider may send them a while
// after), not at the next window's end.
func TestFinishHurriesTheReply(t *testing.T) {
	var acc accumulator
	if err := acc.feed([]byte(`{"choices":[{"index":0,"delta":{"content":"done"}}]}`), Handler{}); err != nil {
		t.Fatal(err)
	}
	if acc.hurried {
		t.Fatal("a reply still streaming is hurried")
	}
	if err := acc.feed([]byte(`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`), Handler{}); err != nil {
		t.Fatal(err)
	}
	if !acc.hurried {
		t.Fatal("a finished reply still gathers")
	}
}

// A tool call whose OnToolBegin asks for hurry marks the reply hurried
// from its first delta; one that does not leaves it gathering.
func TestToolBeginHurriesTheReply(t *testing.T) {
	line := []byte(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"task","arguments":""}}]}}]}`)
	for _, hurry := range []bool{false, true} {
		var acc accumulator
		if err := acc.feed(line, Handler{OnToolBegin: func(name string) bool { return hurry && name == "task" }}); err != nil {
			t.Fatal(err)
		}
		if acc.hurried != hurry {
			t.Errorf("OnToolBegin said %v, the reply is hurried: %v", hurry, acc.hurried)
		}
	}
}
