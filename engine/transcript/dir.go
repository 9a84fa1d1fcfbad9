package transcript

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"
)

// trashMarker sits between a trashed transcript's name and the Unix time
// it was trashed at; Prune removes every file carrying it.
const trashMarker = ".deleted."

// Dir is one session's folder. It hands out one Writer per agent file and
// is safe for concurrent use.
type Dir struct {
	id     string
	path   string
	redact *Redactor

	mu      sync.Mutex
	writers map[string]*Writer
	lock    *os.File // held while this process writes the session (see Lock)
	// used says a prompt was recorded by this process (see MarkUsed).
	used bool

	// syncing counts the files of released writers still being synced
	// (see syncLater) and idle is closed each time that count falls to
	// zero (a WaitGroup would panic when a release starts a sync while
	// Settle waits); syncErrs are their failures not yet reported.
	syncMu   sync.Mutex
	syncing  int
	idle     chan struct{}
	syncErrs []error
}

func newDir(id, path string, r *Redactor) *Dir {
	return &Dir{id: id, path: path, redact: r, writers: map[string]*Writer{}}
}

// ID is the session id, as shown by "baton sessions" and taken by --resume.
func (d *Dir) ID() string { return d.id }

// Path is the session's folder.
func (d *Dir) Path() string { return d.path }

// FileOf is the path of agent's transcript: main.jsonl for the main agent,
// <agent>.jsonl (sanitized) for a child. It is what a child's summary line
// shows as its transcript location.
func (d *Dir) FileOf(agent string) string {
	return filepath.Join(d.path, sanitize(agent)+".jsonl")
}

// Writer returns the writer of agent's transcript, opening it on first use
// and returning the same one until it is closed, so that every record of an
// agent goes through one lock and one file handle.
func (d *Dir) Writer(agent string) (*Writer, error) {
	if agent == "" {
		return nil, errors.New("open transcript: empty agent id")
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if w, ok := d.writers[agent]; ok {
		return w, nil
	}
	w, err := openWriter(d, agent, d.FileOf(agent))
	if err != nil {
		return nil, err
	}
	d.writers[agent] = w
	return w, nil
}

// Release closes agent's transcript file until the agent writes again
// (see Writer.Release); an agent with no open writer is left as it is.
// It returns the failures of earlier releases' syncs not yet reported.
func (d *Dir) Release(agent string) error {
	d.mu.Lock()
	w := d.writers[agent]
	d.mu.Unlock()
	if w != nil {
		w.Release()
	}
	return d.syncFailures()
}

// syncLater syncs and closes the file of a released writer on a goroutine
// of its own: the agent has ended and what it wrote is already in the
// kernel's hands, safe from the process being killed, and only a power
// loss needs the sync, which took 1 ms at the median and 8 to 30 ms on a
// busy disk while the parent waited for it. Close waits for every one.
func (d *Dir) syncLater(f *os.File) {
	d.syncMu.Lock()
	if d.syncing == 0 {
		d.idle = make(chan struct{})
	}
	d.syncing++
	d.syncMu.Unlock()
	go func() {
		err := errors.Join(f.Sync(), f.Close())
		d.syncMu.Lock()
		defer d.syncMu.Unlock()
		if err != nil {
			d.syncErrs = append(d.syncErrs, fmt.Errorf("close transcript: %w", err))
		}
		if d.syncing--; d.syncing == 0 {
			close(d.idle)
		}
	}()
}

// waitSynced returns once no released file is being synced.
func (d *Dir) waitSynced() {
	d.syncMu.Lock()
	idle, busy := d.idle, d.syncing > 0
	d.syncMu.Unlock()
	if busy {
		<-idle
	}
}

// Settle waits until the transcripts released so far are synced and
// closed, and returns the failures not reported before: at the end of a
// turn, every file of the session is on disk and only the open ones are
// held.
func (d *Dir) Settle() error {
	d.waitSynced()
	return d.syncFailures()
}

// syncFailures returns the failed background syncs not reported before.
func (d *Dir) syncFailures() error {
	d.syncMu.Lock()
	defer d.syncMu.Unlock()
	err := errors.Join(d.syncErrs...)
	d.syncErrs = nil
	return err
}

// Trash renames agent's transcript to <file>.deleted.<unix time>, for
// cleanup = "delete": the file leaves the session at once but stays
// recoverable until the next Prune removes it. An open writer of the agent
// is closed first, so nothing is written to the trashed file.
func (d *Dir) Trash(agent string, now time.Time) error {
	d.mu.Lock()
	w := d.writers[agent]
	delete(d.writers, agent)
	d.mu.Unlock()
	if w != nil {
		if err := w.closeFile(); err != nil {
			return fmt.Errorf("trash transcript: %w", err)
		}
	}
	file := d.FileOf(agent)
	if err := os.Rename(file, file+trashMarker+strconv.FormatInt(now.Unix(), 10)); err != nil {
		return fmt.Errorf("trash transcript: %w", err)
	}
	return nil
}

// Close syncs and closes every writer of the session, waits for the
// syncs of released ones, and releases its lock; call it when the session
// ends.
func (d *Dir) Close() error {
	d.mu.Lock()
	writers, lock := d.writers, d.lock
	d.writers, d.lock = map[string]*Writer{}, nil
	d.mu.Unlock()
	var errs []error
	for _, w := range writers {
		errs = append(errs, w.closeFile())
	}
	errs = append(errs, d.Settle())
	if lock != nil {
		errs = append(errs, lock.Close()) // closing the file releases the flock
	}
	return errors.Join(errs...)
}

// forget drops w from the open writers once it is closed, so the next
// Writer call for its agent opens a fresh one.
func (d *Dir) forget(w *Writer) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.writers[w.agent] == w {
		delete(d.writers, w.agent)
	}
}

// Read returns agent's records, tolerating damage left by a crash (see
// Truncation). A missing transcript is an error wrapping fs.ErrNotExist.
// Reading the file of a running agent is safe; a record being written at
// that instant may show as a cut last line and is there on the next read.
func (d *Dir) Read(agent string) ([]Record, *Truncation, error) {
	return readFile(d.FileOf(agent))
}

// MarkUsed records that a prompt was sent in the session, its record
// written: CloseDiscardingEmpty then keeps the session without reading
// its transcript back to find a turn.
func (d *Dir) MarkUsed() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.used = true
}

// CloseDiscardingEmpty closes the session like Close and, when no prompt
// was ever sent in it, removes its folder, so a baton opened and quit
// leaves no row in "baton sessions". The folder goes while the lock is
// still held, so no other process can have claimed it in between. It
// reports whether the session was removed.
func (d *Dir) CloseDiscardingEmpty() (bool, error) {
	d.mu.Lock()
	used := d.used
	d.mu.Unlock()
	if used {
		return false, d.Close()
	}
	sum, err := summarize(d.id, d.path)
	if err != nil || sum.Turns > 0 {
		return false, errors.Join(err, d.Close())
	}
	if err := os.RemoveAll(d.path); err != nil {
		return false, errors.Join(fmt.Errorf("discard empty session: %w", err), d.Close())
	}
	return true, d.Close()
}
