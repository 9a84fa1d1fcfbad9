package main

import (
	"fmt"
	"slices"
	"strings"
)

// printAgainst writes the row of the -against binary under the case's
// own, and the A/B line: each figure's ratio (this binary ÷ the other)
// run by run, the median of those ratios, and how many runs this binary
// was the lower in. Runs taken side by side share the load of their
// moment, so the ratios hold where the medians of a loaded machine wander.
func printAgainst(c perfCase, ours, theirs []sample) {
	other := c
	other.name = "  against"
	printRow(other, medians(theirs))
	figures := []struct {
		name string
		of   func(sample) float64
	}{
		{"wall", func(s sample) float64 { return s.wall.Seconds() }},
		{"cpu", func(s sample) float64 { return s.cpu.Seconds() }},
		{"rss", func(s sample) float64 { return float64(s.rss) }},
	}
	if !c.tui && ours[0].path > 0 {
		figures = append(figures, struct {
			name string
			of   func(sample) float64
		}{"wall/path", func(s sample) float64 { return s.wall.Seconds() / s.path.Seconds() }})
	}
	if c.extraName != "" && ours[0].extra >= 0 {
		figures = append(figures, struct {
			name string
			of   func(sample) float64
		}{c.extraName, func(s sample) float64 { return s.extra.Seconds() }})
	}
	var parts []string
	for _, f := range figures {
		ratios := make([]float64, len(ours))
		lower := 0
		for i := range ours {
			a, b := f.of(ours[i]), f.of(theirs[i])
			ratios[i] = a / b
			if a < b {
				lower++
			}
		}
		slices.Sort(ratios)
		parts = append(parts, fmt.Sprintf("%s %.3f (lower %d/%d)", f.name, ratios[len(ratios)/2], lower, len(ours)))
	}
	fmt.Printf("%-24s A/B, this ÷ against, median of per-run ratios: %s\n", "", strings.Join(parts, ", "))
}
