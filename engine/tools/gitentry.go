package tools

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/seed-e4e525a6/baton/agenttypes/repofile"
)

// The worktree's .git names the git directory git uses. A command that
// replaces it with a `gitdir:` file or a link, or adds one where there
// was none, sends the person's next git command to a directory the
// command wrote, with its own hooks and fsmonitor. Where commands get a
// mount namespace, .git is pinned and cannot be moved or replaced; where
// they do not, this puts it back.

// entryKind is what a .git was.
type entryKind int

const (
	entryAbsent entryKind = iota
	entryDir
	entryFile
	entryLink
	entryOther
)

// gitEntry is a worktree's .git as recorded before a command: a folder
// by identity (its contents are guarded name by name), a file by
// content, a link by target.
type gitEntry struct {
	path string
	kind entryKind
	id   [4]uint64 // a folder's folderIdentity
	data []byte
	mode os.FileMode
}

// recordEntry records the .git at path without following it.
func recordEntry(path string) gitEntry {
	e := gitEntry{path: path}
	info, err := os.Lstat(path)
	if err != nil {
		return e
	}
	e.mode = info.Mode()
	switch {
	case info.IsDir():
		e.kind = entryDir
		e.id = folderIdentity(path)
	case info.Mode()&os.ModeSymlink != 0:
		e.kind = entryLink
		target, _ := os.Readlink(path)
		e.data = []byte(target)
	case info.Mode().IsRegular():
		e.kind = entryFile
		if f, err := os.Open(path); err == nil {
			e.data = make([]byte, maxGitFileBytes)
			n, _ := f.Read(e.data)
			e.data = e.data[:n]
			f.Close()
		}
	default:
		e.kind = entryOther
	}
	return e
}

// same reports whether o, recorded after, is the .git e was.
func (e gitEntry) same(o gitEntry) bool {
	switch {
	case e.kind != o.kind:
		return false
	case e.kind == entryDir:
		return e.id == o.id
	case e.kind == entryFile || e.kind == entryLink:
		return string(e.data) == string(o.data) && e.mode == o.mode
	}
	return true
}

// restore puts .git back as it was and says what it did, nil when it
// is unchanged. What the command put in its place is moved aside, never
// deleted, unless it is a file or link (a pointer the command wrote). A
// .git folder that appeared where there was none stays if git would run
// nothing from it (a fresh `git init`).
func (e gitEntry) restore() []putBack {
	now := recordEntry(e.path)
	if e.same(now) {
		return nil
	}
	if e.kind == entryAbsent && now.kind == entryDir && quietGitDir(e.path) {
		return nil
	}
	var out []putBack
	movedAside := ""
	note := func(did string, err error) { out = append(out, putBack{path: e.path, did: did + movedAside, err: err}) }
	if now.kind != entryAbsent {
		switch now.kind {
		case entryFile, entryLink:
			err := os.Remove(e.path)
			if e.kind == entryAbsent {
				note("removed (the command created it: "+kindOf(now.mode)+describeData(now)+")", err)
				return out
			}
			if err != nil {
				note("", fmt.Errorf("could not remove the %s the command put there: %w", kindOf(now.mode), err))
				return out
			}
		default:
			aside := e.path + ".baton-moved-" + strconv.FormatInt(time.Now().UnixNano(), 36)
			if err := os.Rename(e.path, aside); err != nil {
				note("", fmt.Errorf("could not move aside the %s the command put there: %w", kindOf(now.mode), err))
				return out
			}
			if e.kind == entryAbsent {
				note("moved to "+filepath.Base(aside)+" (the command created a git folder that runs programs)", nil)
				return out
			}
			movedAside = "; what the command put there was moved to " + filepath.Base(aside)
		}
	}
	how := "the command had removed it"
	switch {
	case now.kind == e.kind && now.kind != entryDir:
		how = "the command had rewritten it," + describeData(now)
	case now.kind != entryAbsent:
		how = "the command had replaced it with " + kindOf(now.mode) + describeData(now)
	}
	switch e.kind {
	case entryFile:
		note("put back ("+how+")", os.WriteFile(e.path, e.data, e.mode.Perm()))
	case entryLink:
		note("link put back ("+how+")", os.Symlink(string(e.data), e.path))
	case entryDir:
		if found := e.find(); found != "" {
			note("folder put back from "+filepath.Base(found)+" ("+how+")", os.Rename(found, e.path))
		} else {
			note("", errors.New(how+", and the original folder is not in the folder that held it"))
		}
	default:
		note("", errors.New(how))
	}
	return out
}

// find looks for the original .git folder, by identity, among the
// entries of the folder that held it (where `mv .git x` leaves it).
func (e gitEntry) find() string {
	dir := filepath.Dir(e.path)
	entries, _ := os.ReadDir(dir)
	for _, d := range entries {
		p := filepath.Join(dir, d.Name())
		if d.IsDir() && folderIdentity(p) == e.id {
			return p
		}
	}
	return ""
}

// describeData shows a pointer's target: what a gitdir: file or a link
// said.
func describeData(e gitEntry) string {
	if len(e.data) == 0 || (e.kind != entryFile && e.kind != entryLink) {
		return ""
	}
	line, _, _ := strings.Cut(string(e.data), "\n")
	if len(line) > 200 {
		line = line[:200] + "…"
	}
	return fmt.Sprintf(" saying %q", line)
}

// quietGitDir reports whether a git folder runs nothing of its own: no
// pointer elsewhere, hooks that are only samples, a config that sets
// only what `git init`, `git clone` and everyday work set (quietSettings),
// and no submodule in its index.
// Git runs programs from more settings than anyone lists (a signing key
// command, a remote's upload-pack, a transport), so any other setting
// makes the folder one that runs something.
func quietGitDir(dir string) bool {
	for _, name := range []string{"commondir", "config.worktree", "modules"} {
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			return false
		}
	}
	hooks, _ := os.ReadDir(filepath.Join(dir, "hooks"))
	for _, h := range hooks {
		if !h.Type().IsRegular() || filepath.Ext(h.Name()) != ".sample" {
			return false
		}
	}
	if info, err := os.Lstat(filepath.Join(dir, "config")); err != nil || !info.Mode().IsRegular() {
		return err != nil && os.IsNotExist(err)
	}
	// A submodule it names is looked into by the person's git status,
	// and could run anything; its config is quiet, so git may read it.
	return onlyQuietSettings(filepath.Join(dir, "config")) && len(listGitlinks(filepath.Dir(dir), dir)) == 0
}

// quietSettings are the settings, by gitConfigEntry.name, that run no
// program: a repository's format, identity, remotes, branches and
// submodules' addresses, and everyday preferences.
var quietSettings = map[string]bool{
	"core.repositoryformatversion": true, "core.filemode": true, "core.bare": true, "core.logallrefupdates": true,
	"core.ignorecase": true, "core.precomposeunicode": true, "core.symlinks": true, "core.autocrlf": true,
	"core.eol": true, "core.safecrlf": true, "core.quotepath": true, "core.compression": true, "core.abbrev": true,
	"core.checkstat": true, "core.trustctime": true, "core.untrackedcache": true, "core.splitindex": true,
	"core.commitgraph": true, "core.multipackindex": true, "core.sparsecheckout": true,
	"core.sparsecheckoutcone": true, "core.whitespace": true, "core.preloadindex": true, "core.sharedrepository": true,
	"receive.denynonfastforwards": true, "lfs.repositoryformatversion": true,
	"user.name": true, "user.email": true, "author.name": true, "author.email": true,
	"committer.name": true, "committer.email": true, "init.defaultbranch": true,
	"extensions.objectformat": true, "extensions.refstorage": true, "extensions.partialclone": true,
	"remote.*.url": true, "remote.*.pushurl": true, "remote.*.fetch": true, "remote.*.push": true,
	"remote.*.tagopt": true, "remote.*.mirror": true, "remote.*.prune": true, "remote.*.prunetags": true,
	"remote.*.promisor": true, "remote.*.partialclonefilter": true,
	"branch.*.remote": true, "branch.*.merge": true, "branch.*.rebase": true, "branch.*.pushremote": true,
	"branch.*.description": true, "submodule.*.url": true, "submodule.*.active": true,
	"submodule.*.branch": true, "submodule.*.ignore": true, "pull.rebase": true, "pull.ff": true,
	"push.default": true, "push.autosetupremote": true, "push.followtags": true, "fetch.prune": true,
	"merge.ff": true, "merge.conflictstyle": true, "rebase.autostash": true, "rebase.autosquash": true,
	"status.showuntrackedfiles": true, "color.ui": true, "index.version": true, "gc.auto": true,
}

// onlyQuietSettings reports whether a config file sets nothing but
// quietSettings, and no remote address that runs a program (git's
// ext:: transport).
func onlyQuietSettings(file string) bool {
	f, err := repofile.Read("", file, maxGitConfigBytes)
	if err != nil {
		return false
	}
	for _, e := range parseGitConfig(string(f.Data)) {
		n := e.name()
		if !quietSettings[n] {
			return false
		}
		if (n == "remote.*.url" || n == "remote.*.pushurl" || n == "submodule.*.url") &&
			strings.HasPrefix(strings.ToLower(strings.TrimSpace(e.value)), "ext::") {
			return false
		}
	}
	return true
}
