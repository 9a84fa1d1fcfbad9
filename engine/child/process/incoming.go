package process

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// read takes the child's lines until its output ends; a line that breaks
// the protocol ends the child, whose rest is drained unread.
func (h *handle) read(ctx context.Context) {
	for {
		line, err := h.out.next()
		if err != nil {
			// A child let go of (Detach) runs on: its line ends here,
			// whichever way its end was closed (a pipe, or a socket
			// of a child found again), and nothing failed.
			if !errors.Is(err, io.EOF) && !errors.Is(err, os.ErrClosed) && !h.isDetached() {
				h.fail(fmt.Errorf("read its output: %w", err))
			}
			return
		}
		if h.isBroken() {
			continue
		}
		if err := h.take(ctx, line); err != nil {
			h.fail(fmt.Errorf("it sent what baton cannot take (%w)", err))
		}
	}
}

// fail stops listening to the child and kills its process.
func (h *handle) fail(err error) {
	h.mu.Lock()
	if h.broken == nil {
		h.broken = err
	}
	h.mu.Unlock()
	h.proc.Kill()
}

// isBroken reports whether baton stopped listening to the child.
func (h *handle) isBroken() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.broken != nil
}

// take handles one line from the child.
func (h *handle) take(ctx context.Context, line []byte) error {
	var u up
	if err := json.Unmarshal(line, &u); err != nil {
		return err
	}
	h.mu.Lock()
	ended := h.result != nil
	replayed := u.Seq != 0 && h.home != nil && u.Seq <= h.home.taken
	h.mu.Unlock()
	switch {
	case ended:
		return errors.New("a line after its result")
	case replayed:
		return nil // a line an earlier baton took
	}
	defer h.tookLine(u.Seq)
	switch {
	case u.Caught != 0:
		h.mu.Lock()
		h.caught = true
		h.mu.Unlock()
	case u.Event != nil:
		ev, err := decodeEvent(u.Event, h.job.Spec.Meta)
		if err != nil {
			return err
		}
		h.note(ev)
		h.job.Link.Emit(h.retitled(ev))
	case u.Message != nil:
		h.mu.Lock()
		h.recorded = append(h.recorded, *u.Message)
		h.mu.Unlock()
		h.job.Link.Record(*u.Message)
	case u.Ask != nil:
		q := *u.Ask
		if !h.takeAsk(q.ID) {
			return nil
		}
		h.questions.Add(1)
		// Ends when the question is answered; every wait in it ends
		// with ctx, which ends with the child.
		go func() {
			defer h.questions.Done()
			_ = h.in.write(down{Reply: new(h.answer(ctx, q))})
		}()
	case u.Unlock != 0:
		h.unlock(u.Unlock)
	case u.Loaded != "":
		if h.job.Loop.SkillLoaded != nil {
			h.job.Loop.SkillLoaded(u.Loaded)
		}
	case u.Go != 0:
		h.mu.Lock()
		if g, ok := h.goes[u.Go]; ok {
			close(g)
			delete(h.goes, u.Go)
		}
		h.mu.Unlock()
	case u.Result != nil:
		if !slices.Contains(loopEndings, u.Result.Status) {
			return fmt.Errorf("a result with status %q", u.Result.Status)
		}
		h.mu.Lock()
		h.result = u.Result
		h.mu.Unlock()
	default:
		return errors.New("an empty line")
	}
	return nil
}

// retitled gives a call of a tool that stays with baton the title baton's
// own tool gives it.
func (h *handle) retitled(ev event.Event) event.Event {
	if st, ok := ev.(event.ToolStarted); ok {
		if t := heldTool(h.job, st.Name); t != nil {
			st.Title = t.Title([]byte(st.Args))
			return st
		}
	}
	return ev
}
