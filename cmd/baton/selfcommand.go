package main

import (
	"os"
	"path/filepath"
	"strings"
)

// selfCommand says how to start this baton again from the shell the
// person started it in, with args: what baton prints on its way out
// ("resume this session with: …") must name a command that exists.
//
//   - "baton ARGS" when that name on the person's PATH is this program;
//   - a binary `go run` built lives in a temporary folder deleted when it
//     exits, so the command that builds it again ("make run ARGS='…'" under
//     make, else "go run ./cmd/baton ARGS");
//   - otherwise the program's own path ("./bin/baton ARGS",
//     "/opt/baton/bin/baton ARGS").
type selfCommand struct {
	// exe is this program's path (os.Executable), path the PATH it was
	// started with, and underMake says make started it (MAKELEVEL set).
	exe, path string
	underMake bool
}

// thisProgram is the selfCommand of the running process.
func thisProgram(env map[string]string) selfCommand {
	exe, err := os.Executable()
	if err != nil {
		exe = ""
	}
	return selfCommand{exe: exe, path: env["PATH"], underMake: env["MAKELEVEL"] != ""}
}

// with is the command line that runs this baton with args (already
// written as the shell takes them).
func (c selfCommand) with(args string) string {
	switch {
	case c.exe == "" || c.onPath():
		return strings.TrimSpace("baton " + args)
	case builtByGoRun(c.exe) && c.underMake:
		return "make run ARGS=" + shellQuote(args)
	case builtByGoRun(c.exe):
		return strings.TrimSpace("go run ./cmd/baton " + args)
	}
	return strings.TrimSpace(shellQuote(c.exe) + " " + args)
}

// onPath says whether "baton" on the PATH is this program.
func (c selfCommand) onPath() bool {
	self, err := os.Stat(c.exe)
	if err != nil {
		return false
	}
	for _, dir := range filepath.SplitList(c.path) {
		if dir == "" || !filepath.IsAbs(dir) { // a relative PATH entry depends on where the shell is
			continue
		}
		info, err := os.Stat(filepath.Join(dir, "baton"))
		if err != nil || info.IsDir() || info.Mode()&0o111 == 0 {
			continue
		}
		return os.SameFile(info, self) // the first baton on the PATH is the one the shell runs
	}
	return false
}

// builtByGoRun says whether exe is a binary `go run` built: it lives in
// the go tool's work folder (…/go-build…/b001/exe/NAME) and is deleted
// when the program exits.
func builtByGoRun(exe string) bool {
	return filepath.Base(filepath.Dir(exe)) == "exe" && strings.Contains(filepath.ToSlash(exe), "/go-build")
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+=:,@", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
