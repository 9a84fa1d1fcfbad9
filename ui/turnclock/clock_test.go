package turnclock

import (
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)

func TestClockMeasuresATurn(t *testing.T) {
	var c Clock
	if c.Parts(t0) != nil {
		t.Fatal("an idle clock shows measurements")
	}
	c.Start(t0)
	if got := strings.Join(c.Parts(t0.Add(3*time.Second)), " · "); got != "3s · no tokens yet" {
		t.Errorf("before the first token: %q", got)
	}
	c.Received(t0.Add(1400*time.Millisecond), strings.Repeat("x", 400))
	c.Counted(1150) // the provider's count replaces the estimate
	c.Received(t0.Add(5*time.Second), strings.Repeat("y", 203))
	if got := strings.Join(c.Parts(t0.Add(12*time.Second)), " · "); got != "12s · ↓ 1.2k tok · first token 1s" {
		t.Errorf("streaming: %q", got)
	}
	c.Stop()
	if c.Parts(t0.Add(13*time.Second)) != nil || c.Running() {
		t.Error("a stopped clock still shows")
	}
	c.Start(t0.Add(time.Minute))
	if c.Tokens() != 0 {
		t.Errorf("a new turn starts from %d tokens", c.Tokens())
	}
}

func TestLineDropsTheLeastImportantFirst(t *testing.T) {
	parts := []string{"12s", "↓ 1.2k tok", "first token 1s"}
	if got := Line("working", parts, "esc to interrupt", 120); got != "working · 12s · ↓ 1.2k tok · first token 1s · esc to interrupt" {
		t.Errorf("wide: %q", got)
	}
	if got := Line("working", parts, "esc to interrupt", 50); got != "working · 12s · ↓ 1.2k tok · esc to interrupt" {
		t.Errorf("narrow: %q", got)
	}
	if got := Line("working", parts, "esc to interrupt", 10); got != "working · esc to interrupt" {
		t.Errorf("tiny: %q", got)
	}
}

func TestDurationAndTokens(t *testing.T) {
	for d, want := range map[time.Duration]string{-time.Second: "0s", 59900 * time.Millisecond: "59s",
		125 * time.Second: "2m05s", 3*time.Hour + 4*time.Minute: "3h04m"} {
		if got := Duration(d); got != want {
			t.Errorf("Duration(%v) = %q, want %q", d, got, want)
		}
	}
	for n, want := range map[int]string{800: "800 tok", 1234: "1.2k tok", 3_400_000: "3.4M tok"} {
		if got := Tokens(n); got != want {
			t.Errorf("Tokens(%d) = %q, want %q", n, got, want)
		}
	}
}
