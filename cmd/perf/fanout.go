package main

import (
	"fmt"
	"os/exec"
	"time"
)

// probeKeys are typed one at a time while the children stream; none
// appears in what the endpoint or baton writes, so each key's arrival is
// the input line holding every key typed so far.
const probeKeys = "ZXQJVKWY"

// keysWhileFanningOut asks for the fan-out, waits until every child is
// in flight, then types probeKeys a key at a time and times each from
// the key press to the frame that shows it. The figure is the median.
func keysWhileFanningOut(srv *server) tuiStep {
	return func(sc *screen) (time.Duration, error) {
		if err := sc.typeKeys("split\r"); err != nil {
			return -1, err
		}
		if err := waitUntil(func() bool { return srv.childrenStarted() >= fanOut }, 60*time.Second, "the children did not all start"); err != nil {
			return -1, err
		}
		var lat []time.Duration
		for i := range probeKeys {
			from := sc.mark()
			pressed := time.Now()
			if _, err := sc.f.WriteString(probeKeys[i : i+1]); err != nil {
				return -1, err
			}
			seen, err := sc.waitFor(probeKeys[:i+1], from, 10*time.Second)
			if err != nil {
				return -1, fmt.Errorf("key %d: %w", i+1, err)
			}
			lat = append(lat, seen.Sub(pressed))
			time.Sleep(50 * time.Millisecond)
		}
		for range probeKeys { // the prompt is left empty again
			if _, err := sc.f.Write([]byte{0x7f}); err != nil {
				return -1, err
			}
		}
		if err := waitUntil(func() bool { return srv.answered() >= 1 }, 120*time.Second, "the turn did not end"); err != nil {
			return -1, err
		}
		return median(lat), nil
	}
}

// answerEnd closes every main-agent answer of the seeded session, so a
// resume can tell when its last answer is on the screen.
const answerEnd = "ANSWEREND"

// lifeTurns and lifePerTurn make the session of seedLife: 500 children
// over its life.
const (
	lifeTurns   = 10
	lifePerTurn = lifeChildren / lifeTurns
)

// seedLife records one session in which the main agent delegated to
// lifePerTurn children in each of lifeTurns turns, through baton itself.
func seedLife(t tools, h *home, srv *server) error {
	for turn := range lifeTurns {
		srv.use(script{words: 20, children: lifePerTurn, end: answerEnd})
		args := []string{"--yolo", "-p", "split"}
		if turn > 0 {
			args = append([]string{"--continue"}, args...)
		}
		cmd := exec.Command(t.baton, args...)
		cmd.Dir, cmd.Env = h.project, h.env
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("turn %d: %w: %s", turn+1, err, out)
		}
	}
	return nil
}

// resumed is how long the resumed session takes from the start to the
// frame that shows its last answer.
func resumed(sc *screen) (time.Duration, error) {
	seen, err := sc.waitFor(answerEnd, 0, 30*time.Second)
	if err != nil {
		return -1, err
	}
	return seen.Sub(sc.started), nil
}

// listSubagents runs /subagents list in the resumed session and times it
// from the Enter key to the frame that shows the last child's row.
func listSubagents(sc *screen) (time.Duration, error) {
	if _, err := sc.waitFor(answerEnd, 0, 30*time.Second); err != nil {
		return -1, err
	}
	if err := sc.typeKeys("/subagents list"); err != nil {
		return -1, err
	}
	time.Sleep(200 * time.Millisecond)
	from := sc.mark()
	pressed := time.Now()
	if _, err := sc.f.WriteString("\r"); err != nil {
		return -1, err
	}
	seen, err := sc.waitFor(fmt.Sprintf("explore-%d", lifeChildren), from, 10*time.Second)
	if err != nil {
		return -1, err
	}
	return seen.Sub(pressed), nil
}
