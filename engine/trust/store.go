// Package trust keeps the person's word on which folders' project files
// apply in full: the trust list in the user's state folder (never in a
// repository, so a repository cannot vouch for itself), the trust a run
// gives its workspace, and the card's content, what an untrusted
// project asks for. Every front end decides through it, so all share
// one policy.
package trust

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"time"
)

// maxTrustFileBytes bounds the trust list: thousands of folders fit well
// inside it, and a file larger than that is not ours.
const maxTrustFileBytes = 1 << 20

// Store is the list of folders whose project files the person has
// trusted. It lives in the user's state folder, never in a repository, so
// a repository cannot vouch for itself.
type Store struct {
	path string
}

// listFile is trusted.json as written.
type listFile struct {
	Version int     `json:"version"`
	Folders []Entry `json:"folders"`
	// Declined are folders where the person chose to run without the
	// project's settings, with a fingerprint of what was asked, so the
	// card is not shown again until the project asks for something new.
	Declined []declinedEntry `json:"declined,omitempty"`
}

// declinedEntry is one folder the person chose not to trust.
type declinedEntry struct {
	Path  string `json:"path"`
	Wants string `json:"wants"`
}

// Entry is one trusted folder: its resolved absolute path, and when.
type Entry struct {
	Path      string    `json:"path"`
	TrustedAt time.Time `json:"trusted_at"`
}

// NewStore locates trusted.json next to the sessions, under
// $XDG_STATE_HOME/baton (an absolute one) or ~/.local/state/baton.
func NewStore(env map[string]string) (*Store, error) {
	if state := env["XDG_STATE_HOME"]; filepath.IsAbs(state) {
		return &Store{filepath.Join(state, "baton", "trusted.json")}, nil
	}
	if home := env["HOME"]; home != "" {
		return &Store{filepath.Join(home, ".local", "state", "baton", "trusted.json")}, nil
	}
	return nil, errors.New("locate the trust list: neither XDG_STATE_HOME nor HOME is set")
}

// ResolveFolder is the identity trust is recorded under: the absolute
// path with every symlink evaluated, so a link to a trusted folder is the
// same folder and a trusted link cannot be re-pointed elsewhere.
func ResolveFolder(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("resolve folder: %w", err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("resolve folder: %w", err)
	}
	info, err := os.Stat(real)
	if err != nil {
		return "", fmt.Errorf("resolve folder: %w", err)
	}
	if !info.IsDir() {
		return "", fmt.Errorf("resolve folder: %s is not a folder", dir)
	}
	return real, nil
}

// load reads the list; a missing file is an empty list. A damaged file is
// an error, so nothing silently trusts or forgets a folder.
func (s *Store) load() (listFile, error) {
	f, err := os.Open(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return listFile{Version: 1}, nil
	}
	if err != nil {
		return listFile{}, fmt.Errorf("read trust list: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxTrustFileBytes+1))
	if err != nil {
		return listFile{}, fmt.Errorf("read trust list: %w", err)
	}
	if len(data) > maxTrustFileBytes {
		return listFile{}, fmt.Errorf("read trust list %s: larger than %d KiB", s.path, maxTrustFileBytes>>10)
	}
	var tf listFile
	if err := json.Unmarshal(data, &tf); err != nil {
		return listFile{}, fmt.Errorf("read trust list %s: %w (fix or remove the file)", s.path, err)
	}
	return tf, nil
}

// Folders lists the trusted folders in the order they were trusted.
func (s *Store) Folders() ([]Entry, error) {
	tf, err := s.load()
	return tf.Folders, err
}

// Trusted reports whether the resolved folder dir is on the list.
func (s *Store) Trusted(dir string) (bool, error) {
	tf, err := s.load()
	if err != nil {
		return false, err
	}
	return slices.ContainsFunc(tf.Folders, func(e Entry) bool { return e.Path == dir }), nil
}

// Add puts the resolved folder dir on the list; it reports false when it
// already was.
func (s *Store) Add(dir string, now time.Time) (bool, error) {
	added := false
	err := s.update(func(tf *listFile) bool {
		if slices.ContainsFunc(tf.Folders, func(e Entry) bool { return e.Path == dir }) {
			return false
		}
		tf.Folders = append(tf.Folders, Entry{Path: dir, TrustedAt: now.UTC()})
		tf.Declined = slices.DeleteFunc(tf.Declined, func(e declinedEntry) bool { return e.Path == dir })
		added = true
		return true
	})
	return added, err
}

// Remove takes dir off the list, and forgets a refusal so the card asks
// again; it reports false when dir was not trusted.
func (s *Store) Remove(dir string) (bool, error) {
	removed := false
	err := s.update(func(tf *listFile) bool {
		folders, declined := len(tf.Folders), len(tf.Declined)
		tf.Folders = slices.DeleteFunc(tf.Folders, func(e Entry) bool { return e.Path == dir })
		tf.Declined = slices.DeleteFunc(tf.Declined, func(e declinedEntry) bool { return e.Path == dir })
		removed = len(tf.Folders) < folders
		return len(tf.Folders) != folders || len(tf.Declined) != declined
	})
	return removed, err
}

// Declined reports whether the person already chose to run dir without
// the project settings that wants fingerprints.
func (s *Store) Declined(dir, wants string) (bool, error) {
	tf, err := s.load()
	if err != nil {
		return false, err
	}
	return slices.Contains(tf.Declined, declinedEntry{Path: dir, Wants: wants}), nil
}

// Decline records that choice, replacing an older one for dir.
func (s *Store) Decline(dir, wants string) error {
	return s.update(func(tf *listFile) bool {
		tf.Declined = slices.DeleteFunc(tf.Declined, func(e declinedEntry) bool { return e.Path == dir })
		tf.Declined = append(tf.Declined, declinedEntry{Path: dir, Wants: wants})
		return true
	})
}

// update reads the list, lets change edit it and writes it back when
// change says it changed, all under an exclusive lock on a lock file next
// to the list: two baton processes trusting and untrusting at once each
// see the other's change instead of writing over it. Readers need no lock:
// the list is replaced by a rename, whole.
func (s *Store) update(change func(*listFile) bool) error {
	dir := filepath.Dir(s.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("lock trust list: %w", err)
	}
	lock, err := os.OpenFile(s.path+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("lock trust list: %w", err)
	}
	// Closing the file releases the lock, also when the process dies.
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("lock trust list: %w", err)
	}
	tf, err := s.load()
	if err != nil {
		return err
	}
	if !change(&tf) {
		return nil
	}
	return s.save(tf)
}

// save writes the list atomically (update made the folder): a temporary
// file in the same folder, synced, then renamed over the old one, so a crash or a full disk
// leaves either the old list or the new one, never half of each.
func (s *Store) save(tf listFile) error {
	tf.Version = 1
	data, err := json.MarshalIndent(tf, "", "  ")
	if err != nil {
		return fmt.Errorf("write trust list: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(s.path), ".trusted-*.json")
	if err != nil {
		return fmt.Errorf("write trust list: %w", err)
	}
	defer os.Remove(tmp.Name()) // after a successful rename there is nothing left to remove
	_, err = tmp.Write(append(data, '\n'))
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), s.path)
	}
	if err != nil {
		return fmt.Errorf("write trust list: %w", err)
	}
	return nil
}
