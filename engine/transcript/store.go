package transcript

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// ErrNoSession is wrapped by the errors of Open and Latest when the asked-for
// session does not exist, so callers can tell "nothing to resume" apart from
// a failing disk.
var ErrNoSession = errors.New("no such session")

// maxIDAttempts bounds the retries when a new id is already taken; with
// about a million ids per minute, needing more means something is wrong.
const maxIDAttempts = 32

// Store is the root of all transcripts of this user: one folder per
// project, one folder per session inside it.
type Store struct {
	root   string
	redact *Redactor
}

// NewStore returns a store rooted at root (see DefaultRoot). Every line
// written through its sessions passes through r first; a nil r redacts
// nothing. Nothing is created on disk before Create.
func NewStore(root string, r *Redactor) *Store {
	return &Store{root: root, redact: r}
}

// DefaultRoot is $XDG_STATE_HOME/baton/sessions, or
// $HOME/.local/state/baton/sessions when XDG_STATE_HOME is unset or, as
// the XDG specification asks, ignored for being relative.
func DefaultRoot(getenv func(string) string) (string, error) {
	if state := getenv("XDG_STATE_HOME"); filepath.IsAbs(state) {
		return filepath.Join(state, "baton", "sessions"), nil
	}
	home := getenv("HOME")
	if home == "" {
		return "", errors.New("locate sessions: neither XDG_STATE_HOME nor HOME is set")
	}
	return filepath.Join(home, ".local", "state", "baton", "sessions"), nil
}

// Create makes a new, empty session folder for workspace.
func (s *Store) Create(workspace string, now time.Time) (*Dir, error) {
	project, err := s.projectDir(workspace)
	if err != nil {
		return nil, fmt.Errorf("create session: %w", err)
	}
	if err := os.MkdirAll(project, 0o700); err != nil {
		return nil, fmt.Errorf("create session: %w", err)
	}
	for range maxIDAttempts {
		id := newSessionID(now)
		path := filepath.Join(project, id)
		// Mkdir, not MkdirAll: it fails on an existing folder, which makes
		// the id ours even against another baton process.
		err := os.Mkdir(path, 0o700)
		if err == nil {
			return newDir(id, path, s.redact), nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("create session: %w", err)
		}
	}
	return nil, fmt.Errorf("create session: no free id after %d attempts", maxIDAttempts)
}

// Open returns an existing session of workspace, to resume it.
func (s *Store) Open(workspace, id string) (*Dir, error) {
	if !validID(id) {
		return nil, fmt.Errorf("open session: %q is not a session id (run \"baton sessions\" to list them)", id)
	}
	project, err := s.projectDir(workspace)
	if err != nil {
		return nil, fmt.Errorf("open session %s: %w", id, err)
	}
	path := filepath.Join(project, id)
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && !info.IsDir()) {
		return nil, fmt.Errorf("open session %s for %s: %w (run \"baton sessions\" in that folder to list ids)", id, workspace, ErrNoSession)
	}
	if err != nil {
		return nil, fmt.Errorf("open session %s: %w", id, err)
	}
	return newDir(id, path, s.redact), nil
}

// Latest returns the session of workspace written to most recently: the
// one a person means by "continue", even if it was started long ago. It
// is the first row of List, so the listing and --continue never disagree,
// but it orders the sessions by their files' times first and reads
// transcripts only from the newest on, until one holds a turn: with a
// long history, continuing reads one transcript, not all of them.
func (s *Store) Latest(workspace string) (*Dir, error) {
	project, err := s.projectDir(workspace)
	if err != nil {
		return nil, fmt.Errorf("latest session: %w", err)
	}
	ids, err := sessionIDs(project)
	if err != nil {
		return nil, fmt.Errorf("latest session: %w", err)
	}
	type active struct {
		id   string
		last time.Time
	}
	sessions := make([]active, 0, len(ids))
	for _, id := range ids {
		last, err := lastActivity(filepath.Join(project, id))
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed since ReadDir, e.g. by a concurrent prune
		}
		if err != nil {
			return nil, fmt.Errorf("latest session: %w", err)
		}
		sessions = append(sessions, active{id, last})
	}
	slices.SortFunc(sessions, func(a, b active) int {
		return cmp.Or(b.last.Compare(a.last), cmp.Compare(b.id, a.id))
	})
	for _, a := range sessions {
		// Skipped as List skips it: removed since, or damaged past
		// reading.
		sum, err := summarize(a.id, filepath.Join(project, a.id))
		if err == nil && sum.Turns > 0 {
			return newDir(sum.ID, sum.Dir, s.redact), nil
		}
	}
	return nil, fmt.Errorf("latest session for %s: %w yet", workspace, ErrNoSession)
}

// projectDir is the folder holding workspace's sessions.
func (s *Store) projectDir(workspace string) (string, error) {
	name, err := projectName(workspace)
	if err != nil {
		return "", err
	}
	return filepath.Join(s.root, name), nil
}

// sessionIDs lists the session folders of a project; a project without any
// session yet has none, which is not an error.
func sessionIDs(project string) ([]string, error) {
	entries, err := os.ReadDir(project)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, e := range entries {
		if e.IsDir() && validID(e.Name()) {
			ids = append(ids, e.Name())
		}
	}
	return ids, nil
}

// lastActivity is the latest modification time of a session folder and
// of its files: appends touch a file, creations and renames the folder.
func lastActivity(session string) (time.Time, error) {
	info, err := os.Stat(session)
	if err != nil {
		return time.Time{}, err
	}
	last := info.ModTime()
	entries, err := os.ReadDir(session)
	if err != nil {
		return time.Time{}, err
	}
	for _, e := range entries {
		fi, err := e.Info()
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed since ReadDir, e.g. by a concurrent prune
		}
		if err != nil {
			return time.Time{}, err
		}
		if fi.ModTime().After(last) {
			last = fi.ModTime()
		}
	}
	return last, nil
}
