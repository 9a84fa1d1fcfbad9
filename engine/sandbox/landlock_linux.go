package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// Rights by kind of access; fileRights are those a rule on a file (not
// a folder) may carry.
const (
	readRights  = ll.AccessFSExecute | ll.AccessFSReadFile | ll.AccessFSReadDir
	fileRights  = ll.AccessFSExecute | ll.AccessFSWriteFile | ll.AccessFSReadFile | ll.AccessFSTruncate | ll.AccessFSIoctlDev | ll.AccessFSResolveUnix
	writeDevice = ll.AccessFSWriteFile | ll.AccessFSReadFile | ll.AccessFSTruncate
)

// abi is the kernel's Landlock ABI version, 0 without Landlock.
func abi() int {
	abiOnce.Do(func() { abiValue = buildAbi() })
	return abiValue
}

// abiOnce and abiValue hold the table, built on first use
// (a zero sync.Once costs nothing at start; sync.OnceValue is init code).
var (
	abiOnce  sync.Once
	abiValue int
)

// buildAbi builds the table.
func buildAbi() int {
	v, err := ll.LandlockGetABIVersion()
	if err != nil {
		return 0
	}
	return v
}

// ABI is the kernel's Landlock ABI version, 0 when it has none.
func ABI() int { return abi() }

// Available reports whether commands can be sandboxed here.
func Available() bool { return abi() >= 1 }

// Unavailable says why commands cannot be sandboxed.
func Unavailable() string { return "this kernel has no Landlock" }

// fsRights are the filesystem rights the kernel's ABI knows.
func fsRights(v int) uint64 {
	switch {
	case v >= 9:
		return 1<<17 - 1
	case v >= 5:
		return 1<<16 - 1
	case v >= 3:
		return 1<<15 - 1
	case v == 2:
		return 1<<14 - 1
	}
	return 1<<13 - 1
}

// restrict confines the calling thread, and whatever it execs, to p.
// From ABI 9 on, Landlock itself keeps commands from the Unix sockets
// outside the workspace (a socket the command made stays reachable to
// it); below, the supervisor's mounts or the seccomp filter do.
func restrict(p Policy) error {
	v := abi()
	handled := fsRights(v)
	attr := ll.RulesetAttr{HandledAccessFS: handled}
	if !p.Network && v >= 4 {
		attr.HandledAccessNet = ll.AccessNetBindTCP | ll.AccessNetConnectTCP
		if v >= 10 {
			attr.HandledAccessNet |= ll.AccessNetBindUDP | ll.AccessNetConnectSendUDP
		}
	}
	if v >= 6 {
		attr.Scoped = ll.ScopeSignal | ll.ScopeAbstractUnixSocket
	}
	fd, err := ll.LandlockCreateRuleset(&attr, 0)
	if err != nil {
		return fmt.Errorf("landlock: create ruleset: %w", err)
	}
	defer unix.Close(fd)
	r := rules{fd: fd, handled: handled, hidden: append(resolveAll(p.Hidden), p.homeHidden()...)}
	write := handled &^ ll.AccessFSResolveUnix
	r.carve("/", readRights&handled)
	if p.Mode == WorkspaceWrite {
		r.carve(p.Workspace, write)
	}
	for _, dir := range p.Writable {
		r.carve(dir, write)
	}
	for _, dir := range p.ExtraWritable {
		r.exact(dir, write)
	}
	for _, dir := range p.ExtraReadable {
		r.exact(dir, readRights&handled)
	}
	for _, dev := range []string{"/dev/null", "/dev/zero", "/dev/full"} {
		r.exact(dev, writeDevice)
	}
	r.carve("/dev/shm", write)
	if handled&ll.AccessFSResolveUnix != 0 {
		r.carve(p.Workspace, ll.AccessFSResolveUnix)
		for _, sock := range p.AllowSockets {
			r.allowSocket(sock)
		}
	}
	if r.err != nil {
		return r.err
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("landlock: no_new_privs: %w", err)
	}
	if err := ll.LandlockRestrictSelf(fd, 0); err != nil {
		return fmt.Errorf("landlock: restrict: %w", err)
	}
	return nil
}

// resolveAll adds each path's symlink-free form, so a credential folder
// reached through a link is hidden where it really is.
func resolveAll(paths []string) []string {
	out := make([]string, 0, 2*len(paths))
	for _, p := range paths {
		out = append(out, filepath.Clean(p))
		if real, err := filepath.EvalSymlinks(p); err == nil && real != p {
			out = append(out, real)
		}
	}
	return out
}

// rules adds path rules to a ruleset, carving hidden paths out.
type rules struct {
	fd      int
	handled uint64
	hidden  []string
	err     error
}

// carve grants access to root minus the hidden paths inside it. Landlock
// cannot subtract, so a folder holding a hidden path is granted through
// its other entries, opened one by one relative to their folder without
// following links: a link is skipped, since its target is granted (or
// not) where it lives.
func (r *rules) carve(root string, access uint64) {
	real, err := filepath.EvalSymlinks(root)
	if err != nil || !filepath.IsAbs(real) {
		return // a missing folder grants nothing
	}
	dir, err := unix.Open(real, unix.O_PATH|unix.O_CLOEXEC|unix.O_NOFOLLOW, 0)
	if err != nil {
		return
	}
	defer unix.Close(dir)
	r.carveAt(dir, real, access)
}

func (r *rules) carveAt(fd int, path string, access uint64) {
	if r.err != nil || r.isHidden(path) {
		return
	}
	if !r.holdsHidden(path) {
		r.add(fd, path, access)
		return
	}
	list, err := unix.Openat(fd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	f := os.NewFile(uintptr(list), path)
	names, _ := f.Readdirnames(-1)
	_ = f.Close()
	for _, name := range names {
		child, err := unix.Openat(fd, name, unix.O_PATH|unix.O_CLOEXEC|unix.O_NOFOLLOW, 0)
		if err != nil {
			continue
		}
		r.carveAt(child, filepath.Join(path, name), access)
		_ = unix.Close(child)
	}
}

// exact grants access to path as named, without carving.
func (r *rules) exact(path string, access uint64) {
	fd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	defer unix.Close(fd)
	r.add(fd, path, access)
}

// allowSocket lets commands connect to one socket the person listed. A
// kernel that refuses the rule leaves the socket out of reach, and the
// command is told.
func (r *rules) allowSocket(path string) {
	fd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	defer unix.Close(fd)
	attr := ll.PathBeneathAttr{AllowedAccess: ll.AccessFSResolveUnix, ParentFd: fd}
	if err := ll.LandlockAddPathBeneathRule(r.fd, &attr, 0); err != nil {
		fmt.Fprintf(os.Stderr, "baton sandbox: allow_sockets %s stays out of reach: %v\n", path, err)
	}
}

// add puts one rule on an O_PATH descriptor; links are skipped and files
// get only the rights a file can carry.
func (r *rules) add(fd int, path string, access uint64) {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT == unix.S_IFLNK {
		return
	}
	access &= r.handled
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		access &= fileRights
	}
	if access == 0 {
		return
	}
	attr := ll.PathBeneathAttr{AllowedAccess: access, ParentFd: fd}
	if err := ll.LandlockAddPathBeneathRule(r.fd, &attr, 0); err != nil {
		r.err = fmt.Errorf("landlock: allow %s: %w", path, err)
	}
}

// isHidden reports whether path is a hidden path or inside one.
func (r *rules) isHidden(path string) bool {
	for _, h := range r.hidden {
		if path == h || strings.HasPrefix(path, h+"/") {
			return true
		}
	}
	return false
}

// holdsHidden reports whether a hidden path lies strictly inside path.
func (r *rules) holdsHidden(path string) bool {
	prefix := strings.TrimSuffix(path, "/") + "/"
	for _, h := range r.hidden {
		if strings.HasPrefix(h, prefix) {
			return true
		}
	}
	return false
}
