package sandbox

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// A Unix socket is a door to a program running outside the sandbox: a
// tmux server runs any command its client sends, ssh-agent signs with
// the person's keys, docker and podman start privileged containers, dbus
// reaches the desktop. Below Landlock ABI 9 the kernel lets a sandboxed
// command connect to any socket file it can find, and /proc/net/unix
// lists them all. So when a command starts, every socket bound in this
// network namespace outside the workspace (and not listed in
// [sandbox] allow_sockets), and every other socket file in their
// folders, is covered, in the command's own mount namespace, by an empty
// read-only file: connect() then finds no socket. A socket the command
// makes itself stays reachable to it. What the kernel does not show
// stays reachable: a socket bound by a relative name in a folder no
// other socket is in, or made after the command started.

// maxSockets bounds the sockets read from /proc/net/unix.
const maxSockets = 10000

// boundSockets lists the paths of the pathname sockets bound in this
// network namespace, from /proc/net/unix: "Num RefCount Protocol Flags
// Type St Inode Path", the path absent for an unbound socket and starting
// with "@" for an abstract one.
func boundSockets() []string {
	f, err := os.Open("/proc/net/unix")
	if err != nil {
		return nil
	}
	defer f.Close()
	seen := map[string]bool{}
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 64<<10)
	for sc.Scan() && len(out) < maxSockets {
		line := sc.Bytes()
		for range 7 {
			line = bytes.TrimLeft(line, " ")
			i := bytes.IndexByte(line, ' ')
			if i < 0 {
				line = nil
				break
			}
			line = line[i:]
		}
		path := string(bytes.TrimLeft(line, " "))
		if !strings.HasPrefix(path, "/") || seen[path] {
			continue
		}
		seen[path] = true
		out = append(out, path)
	}
	return out
}

// socketMasks lists the real paths of the sockets to cover for p: each
// socket file outside the workspace and not allowed, in a folder where
// a bound socket lives or was bound. /proc/net/unix shows the path a
// socket was bound at, so a server that binds a temporary name and
// renames it into place (or a second socket beside the first) is found
// by looking at every socket file in that folder.
func (p Policy) socketMasks() []string {
	workspace := p.Workspace
	if real, err := filepath.EvalSymlinks(workspace); err == nil {
		workspace = real
	}
	allowed := make([]string, 0, len(p.AllowSockets))
	for _, s := range p.AllowSockets {
		if real, ok := socketFile(s); ok {
			allowed = append(allowed, real)
		}
	}
	var out []string
	swept := map[string]bool{}
	for _, s := range boundSockets() {
		dir, err := filepath.EvalSymlinks(filepath.Dir(s))
		if err != nil || swept[dir] {
			continue
		}
		swept[dir] = true
		for _, real := range socketsIn(dir) {
			if len(out) < maxSockets && !within(workspace, real) && !slices.Contains(allowed, real) && !slices.Contains(out, real) {
				out = append(out, real)
			}
		}
	}
	return out
}

// maxSweptEntries bounds the entries read from one folder.
const maxSweptEntries = 20000

// socketsIn lists the socket files in dir, by their real paths.
func socketsIn(dir string) []string {
	f, err := os.Open(dir)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []string
	for read := 0; read < maxSweptEntries; {
		entries, err := f.ReadDir(1000)
		for _, e := range entries {
			if e.Type()&os.ModeSocket != 0 {
				if real, ok := socketFile(filepath.Join(dir, e.Name())); ok {
					out = append(out, real)
				}
			}
		}
		read += len(entries)
		if err != nil || len(entries) == 0 {
			break
		}
	}
	return out
}

// socketFile resolves a socket's path, its folder's links included (the
// socket itself is never a link), and reports whether a socket is there.
func socketFile(path string) (string, bool) {
	dir, err := filepath.EvalSymlinks(filepath.Dir(path))
	if err != nil {
		return "", false
	}
	real := filepath.Join(dir, filepath.Base(path))
	var st unix.Stat_t
	if unix.Lstat(real, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFSOCK {
		return "", false
	}
	return real, true
}
