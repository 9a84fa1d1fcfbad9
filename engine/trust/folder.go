package trust

import (
	"errors"
	"path/filepath"
	"time"
)

// Folder is the trust a run gives its workspace: whether the project's
// files apply in full, and where that is recorded.
type Folder struct {
	// Path is the workspace with symlinks resolved: what trust is
	// recorded under.
	Path    string
	Trusted bool
	// Store is the person's trust list; nil when there is none (no HOME
	// and no XDG_STATE_HOME), and then trust lasts one run.
	Store *Store
	// Notice says why the trust list could not be used, or a choice
	// could not be recorded; the folder is then untrusted, which is the
	// safe way to fail.
	Notice string
}

// Lookup decides whether workspace is trusted: flag (--trust, for this
// run only), or the folder on the person's trust list.
func Lookup(workspace string, env map[string]string, flag bool) Folder {
	f := Folder{Path: workspace, Trusted: flag}
	if real, err := ResolveFolder(workspace); err == nil {
		f.Path = real
	}
	store, err := NewStore(env)
	if err != nil {
		f.Notice = err.Error() + "; this folder is treated as untrusted"
		return f
	}
	f.Store = store
	if flag {
		return f
	}
	if f.Trusted, err = store.Trusted(f.Path); err != nil {
		f.Notice = err.Error() + "; this folder is treated as untrusted"
	}
	return f
}

// Broad reports whether the folder is untrusted and the home folder or
// the root, where read-only tools reach keys and credentials: a headless
// run there is refused, and the TUI always asks.
func (f Folder) Broad(env map[string]string) bool {
	return !f.Trusted && IsBroad(f.Path, env)
}

// MustAsk reports whether the person answers the card for req before a
// run starts: always in a broad folder; otherwise when the project wants
// something and the person has not already declined exactly that.
func (f Folder) MustAsk(req Request) bool {
	if req.Warning != "" {
		return true
	}
	return len(req.Sections) > 0 && !f.declined(Fingerprint(req))
}

// declined reports whether the person already ran this folder without
// the project settings that wants fingerprints.
func (f Folder) declined(wants string) bool {
	if f.Store == nil {
		return false
	}
	done, err := f.Store.Declined(f.Path, wants)
	return err == nil && done
}

// Decline records that the person runs without what req asks for, so
// the card stays away until the project asks for something else. A broad
// folder is asked about every time.
func (f *Folder) Decline(req Request) {
	if req.Warning != "" || f.Store == nil {
		return
	}
	if err := f.Store.Decline(f.Path, Fingerprint(req)); err != nil {
		f.Notice = "could not record your choice: " + err.Error()
	}
}

// Grant trusts the folder: on the trust list, or for this run only when
// there is no list or it cannot be written (Notice says which).
func (f *Folder) Grant(now time.Time) {
	f.Trusted = true
	if f.Store == nil {
		f.Notice = "trusted for this run only (" + f.Notice + ")"
	} else if _, err := f.Store.Add(f.Path, now); err != nil {
		f.Notice = "trusted for this run only; could not record it: " + err.Error()
	}
}

// IsBroad reports whether dir (resolved) is the home folder or the root,
// where read-only tools reach keys and credentials.
func IsBroad(dir string, env map[string]string) bool {
	if dir == string(filepath.Separator) {
		return true
	}
	home := env["HOME"]
	if home == "" {
		return false
	}
	real, err := ResolveFolder(home)
	if err != nil {
		real = filepath.Clean(home)
	}
	return dir == real
}

// ErrBroadFolder refuses a headless run in the home folder or the root.
var ErrBroadFolder = errors.New("refusing to run headless in your home folder or the root without --trust: " +
	"read-only tools there reach keys and credentials without asking; cd into a project, or pass --trust")
