package event

import (
	"testing"
	"time"
)

func TestPlural(t *testing.T) {
	for _, c := range []struct {
		n    int
		noun string
		want string
	}{
		{0, "tool", "0 tools"}, {1, "tool", "1 tool"}, {2, "tool", "2 tools"},
		{1, "match/matches", "1 match"}, {3, "match/matches", "3 matches"},
	} {
		if got := Plural(c.n, c.noun); got != c.want {
			t.Errorf("Plural(%d, %q) = %q, want %q", c.n, c.noun, got, c.want)
		}
	}
}

func TestStatsLineCountsOneTool(t *testing.T) {
	got := Stats{ToolCalls: 1, Duration: 1200 * time.Millisecond, Usage: Usage{TotalTokens: 3214}}.Line()
	if want := "1 tool · 1.2s · 3,214 tokens"; got != want {
		t.Errorf("Line() = %q, want %q", got, want)
	}
}

func TestCompact(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 950: "950", 1000: "1.0k", 12_449: "12.4k", 999_999: "1000.0k", 3_100_000: "3.1M"} {
		if got := Compact(n); got != want {
			t.Errorf("Compact(%d) = %q, want %q", n, got, want)
		}
	}
}
