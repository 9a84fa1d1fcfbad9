// Package costgrowth tells, for the markdown tests, work whose cost grows
// with its input's length from work whose cost grows with its square, by
// timing the same work on a short input and on one sixteen times longer.
package costgrowth

import (
	"runtime"
	"time"
)

// Limit is the most a long input may cost per byte, as a multiple of a
// short one's: linear work measures 1 to 2, a square 16.
const Limit = 5

// Growth is how many times as much per byte large costs as small, where
// prepare, untimed, readies the work on src and returns it to be timed.
// A busy machine can slow one measurement down, not three: it measures
// again, at most three times, while the growth is over Limit.
func Growth(small, large string, prepare func(src string) func()) float64 {
	growth := 0.0
	for range 3 {
		if growth = perByte(large, 3, prepare) / perByte(small, 7, prepare); growth <= Limit {
			break
		}
	}
	return growth
}

// perByte is the least time, of runs runs, that the work on src takes,
// per byte of src.
func perByte(src string, runs int, prepare func(src string) func()) float64 {
	best := time.Duration(1 << 62)
	for range runs {
		work := prepare(src)
		runtime.GC()
		start := time.Now()
		work()
		best = min(best, time.Since(start))
	}
	return float64(best) / float64(len(src))
}
