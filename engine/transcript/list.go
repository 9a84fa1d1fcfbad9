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
	"strings"
	"time"
	"unicode/utf8"
)

// Summary is one line of "baton sessions".
type Summary struct {
	ID string
	// Started is the time of the session's first record, or of its folder
	// when nothing was written yet.
	Started time.Time
	// LastActive is when anything in the session was last written: the
	// order of the list and what --continue picks.
	LastActive  time.Time
	FirstPrompt string
	// Title is the first prompt on one line, bounded: what a person
	// recognises the session by. It is not cleaned of terminal escapes;
	// the printer does that.
	Title string
	// Workspace is the folder the session worked in, from its meta
	// record ("" when the session predates it or the record was lost).
	Workspace string
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

// maxTitleRunes bounds a session's title in a listing.
const maxTitleRunes = 80

// List summarises the sessions of workspace in which a prompt was sent,
// most recently active first. A session without a turn (baton opened and
// quit, or one still starting) is no row: there is nothing to resume.
func (s *Store) List(workspace string) ([]Summary, error) {
	project, err := s.projectDir(workspace)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	sums, err := listProject(project)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	sortByActivity(sums)
	return sums, nil
}

// ListAll is List across every project of this user.
func (s *Store) ListAll() ([]Summary, error) {
	entries, err := os.ReadDir(s.root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	var all []Summary
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		sums, err := listProject(filepath.Join(s.root, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("list sessions: %w", err)
		}
		all = append(all, sums...)
	}
	sortByActivity(all)
	return all, nil
}

// listProject summarises a project folder's sessions that hold a turn.
// It fails only when the folder cannot be listed.
func listProject(project string) ([]Summary, error) {
	ids, err := sessionIDs(project)
	if err != nil {
		return nil, err
	}
	sums := make([]Summary, 0, len(ids))
	for _, id := range ids {
		// A session removed since ReadDir (a concurrent prune), or
		// damaged past reading, is no row: the others are.
		sum, err := summarize(id, filepath.Join(project, id))
		if err == nil && sum.Turns > 0 {
			sums = append(sums, sum)
		}
	}
	return sums, nil
}

// sortByActivity orders sums most recently active first.
func sortByActivity(sums []Summary) {
	slices.SortFunc(sums, func(a, b Summary) int {
		return cmp.Or(b.LastActive.Compare(a.LastActive), cmp.Compare(b.ID, a.ID))
	})
}

// title is a prompt on one line, bounded.
func title(prompt string) string {
	t := strings.Join(strings.Fields(prompt), " ")
	if utf8.RuneCountInString(t) <= maxTitleRunes {
		return t
	}
	return string([]rune(t)[:maxTitleRunes-1]) + "…"
}

// summarize reads a session's main transcript. Damage is tolerated here as
// everywhere: a listing shows what survived.
func summarize(id, path string) (Summary, error) {
	sum := Summary{ID: id, Dir: path, CostKnown: true}
	last, err := lastActivity(path)
	if err != nil {
		return Summary{}, err
	}
	sum.LastActive = last
	recs, _, err := readFile(filepath.Join(path, sanitize(MainAgent)+".jsonl"))
	if errors.Is(err, fs.ErrNotExist) {
		sum.Started = last
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
		var meta Meta
		if rec.Kind == KindMeta && sum.Workspace == "" && json.Unmarshal(rec.Data, &meta) == nil {
			sum.Workspace = meta.Workspace
		}
		var ev turnEvent
		if rec.Kind != KindEvent || json.Unmarshal(rec.Data, &ev) != nil {
			continue
		}
		switch ev.Type {
		case "turn_started":
			sum.Turns++
			if sum.FirstPrompt == "" {
				sum.FirstPrompt, sum.Title = ev.Prompt, title(ev.Prompt)
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
