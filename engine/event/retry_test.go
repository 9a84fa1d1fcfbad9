package event

import (
	"testing"
	"time"
)

func TestRetryingLineCountsDown(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r := Retrying{Attempt: 1, Attempts: 3, At: now.Add(30 * time.Second), Reason: "rate limited, Retry-After"}
	cases := []struct {
		at   time.Time
		want string
	}{
		{now, "retrying in 30s (1/3) · rate limited, Retry-After"},
		{now.Add(20500 * time.Millisecond), "retrying in 10s (1/3) · rate limited, Retry-After"},
		{now.Add(29999 * time.Millisecond), "retrying in 1s (1/3) · rate limited, Retry-After"},
		{now.Add(30 * time.Second), "retrying now (1/3) · rate limited, Retry-After"},
	}
	for _, c := range cases {
		if got := r.Line(c.at); got != c.want {
			t.Errorf("Line(+%v) = %q, want %q", c.at.Sub(now), got, c.want)
		}
	}
}
