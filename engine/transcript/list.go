package transcript

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// Summary is one line of "baton sessions".
type Summary struct {
	ID string
	// Started is the time of the session's first record, or of its folder
	// when nothing was written yet.
	Started     time.Time
	FirstPrompt string
	// Turns counts the main agent's turn_started events; Tokens and Cost
	// add up the requestUsage of its turn_ended events, and of the requests of a
	// turn that never ended. A turn cut short by a
	// crash counts as a turn but adds no requestUsage.
	Turns  int
	Tokens int
	Cost   float64
	// CostKnown is false when a turn that used tokens had no known price;
	// the cost is then a lower bound.
	CostKnown bool
	Dir       string
}

// requestUsage is the part of a usage record a summary adds up.
type requestUsage struct {
	TotalTokens int     `json:"total_tokens"`
	Cost        float64 `json:"cost"`
	CostKnown   bool    `json:"cost_known"`
}

// turnEvent holds the fields of the events a summary needs: turn_started,
// turn_ended and the main agent's per-request usage.
type turnEvent struct {
	Type    string       `json:"type"`
	Prompt  string       `json:"prompt"`
	Usage   requestUsage `json:"usage"`
	Request requestUsage `json:"request"`
}

// add counts u into the summary.
func (s *Summary) add(u requestUsage) {
	s.Tokens += u.TotalTokens
	s.Cost += u.Cost
	if u.TotalTokens > 0 && !u.CostKnown {
		s.CostKnown = false
	}
}

// List summarises the sessions of workspace, newest first. A workspace
// without sessions gives an empty list.
func (s *Store) List(workspace string) ([]Summary, error) {
	project, err := s.projectDir(workspace)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	ids, err := sessionIDs(project)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	sums := make([]Summary, 0, len(ids))
	for _, id := range ids {
		sum, err := summarize(id, filepath.Join(project, id))
		if err != nil {
			return nil, fmt.Errorf("list sessions: %w", err)
		}
		sums = append(sums, sum)
	}
	slices.SortFunc(sums, func(a, b Summary) int {
		return cmp.Or(b.Started.Compare(a.Started), cmp.Compare(b.ID, a.ID))
	})
	return sums, nil
}

// summarize reads a session's main transcript. Damage is tolerated here as
// everywhere: a listing shows what survived.
func summarize(id, path string) (Summary, error) {
	sum := Summary{ID: id, Dir: path, CostKnown: true}
	recs, _, err := readFile(filepath.Join(path, sanitize(MainAgent)+".jsonl"))
	if errors.Is(err, fs.ErrNotExist) {
		info, err := os.Stat(path)
		if err != nil {
			return Summary{}, err
		}
		sum.Started = info.ModTime()
		return sum, nil
	}
	if err != nil {
		return Summary{}, err
	}
	var pending []requestUsage
	for _, rec := range recs {
		if sum.Started.IsZero() {
			sum.Started = rec.Time
		}
		var ev turnEvent
		if rec.Kind != KindEvent || json.Unmarshal(rec.Data, &ev) != nil {
			continue
		}
		switch ev.Type {
		case "turn_started":
			sum.Turns++
			if sum.FirstPrompt == "" {
				sum.FirstPrompt = ev.Prompt
			}
		case "usage":
			pending = append(pending, ev.Request)
		case "turn_ended":
			sum.add(ev.Usage)
			pending = nil
		}
	}
	// A turn cut short by a crash has no turn_ended: what its finished
	// requests used still counts.
	for _, u := range pending {
		sum.add(u)
	}
	return sum, nil
}
