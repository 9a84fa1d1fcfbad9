package tools

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTruncate(t *testing.T) {
	tests := []struct {
		name, in string
		max      int
		want     string
	}{
		{"short", "hello", 10, "hello"},
		{"exact", "hello", 5, "hello"},
		{"ascii", "hello world", 5, "hello\n… [truncated: 6 more characters]"},
		{"one left", "abc", 2, "ab\n… [truncated: 1 more character]"},
		{"runes not bytes", "héllo wörld", 4, "héll\n… [truncated: 7 more characters]"},
		{"multibyte fits", "日本語", 3, "日本語"},
		{"thousands", strings.Repeat("x", 12_346), 1, "x\n… [truncated: 12,345 more characters]"},
		{"zero", "abc", 0, "\n… [truncated: 3 more characters]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := truncate(tc.in, tc.max)
			if got != tc.want {
				t.Fatalf("truncate(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
			}
			if !utf8.ValidString(got) {
				t.Fatalf("truncate(%q, %d) cut inside a rune: %q", tc.in, tc.max, got)
			}
		})
	}
}

func TestGroupDigits(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 12345: "12,345", 1234567: "1,234,567"} {
		if got := groupDigits(n); got != want {
			t.Errorf("groupDigits(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestLimitsDefaults(t *testing.T) {
	got := Limits{OutputChars: 10}.withDefaults()
	d := DefaultLimits()
	if got.OutputChars != 10 || got.CommandTimeout != d.CommandTimeout || got.ReadMaxBytes != d.ReadMaxBytes {
		t.Fatalf("withDefaults() = %+v", got)
	}
}

func TestCapture(t *testing.T) {
	tests := []struct {
		name   string
		writes []string
		max    int
		want   string
	}{
		{"fits", []string{"abc", "def"}, 10, "abcdef"},
		{"exactly full", []string{"abcdef"}, 6, "abcdef"},
		{"keeps head and tail", []string{"0123456789"}, 4, "01\n… [truncated: 6 bytes in the middle]\n89"},
		{"many small writes", strings.Split("abcdefghijklmnopqrstuvwxyz", ""), 6, "abc\n… [truncated: 20 bytes in the middle]\nxyz"},
		{"rune boundaries", []string{"aé", strings.Repeat("x", 10), "éb"}, 4, "a\n… [truncated: 14 bytes in the middle]\nb"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := newCapture(tc.max)
			for _, w := range tc.writes {
				if n, err := c.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write(%q) = %d, %v", w, n, err)
				}
			}
			if got := c.String(); got != tc.want {
				t.Fatalf("String() = %q, want %q", got, tc.want)
			}
		})
	}
}
