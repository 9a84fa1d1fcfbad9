package main

import (
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/seed-e4e525a6/baton/engine/trust"
)

// parseSubcommand reads the words after the flags: "sessions",
// "trust [DIR]" or "untrust [DIR]"; nothing else takes arguments.
func parseSubcommand(args []string) (flagValues, error) {
	var v flagValues
	switch {
	case len(args) == 0:
	case len(args) == 1 && args[0] == "sessions":
		v.sessions = true
	case len(args) == 1 && args[0] == "worktrees":
		v.listWorktrees = true
	case len(args) == 1 && args[0] == "acp":
		v.acp = true
	case (args[0] == "trust" || args[0] == "untrust") && len(args) <= 2:
		v.trustCmd = args[0]
		if len(args) == 2 {
			v.trustDir = args[1]
		}
	case args[0] == "trust" || args[0] == "untrust":
		return v, fmt.Errorf("%s takes at most one folder, got %q", args[0], args[1:])
	default:
		return v, fmt.Errorf("unexpected argument %q (a headless prompt goes after -p)", args[0])
	}
	return v, nil
}

// runTrustCommand is "baton trust [DIR]", "baton trust --list" and
// "baton untrust [DIR]", DIR (default: the working folder workdir) read
// from workdir. It needs no config: a folder whose project file is broken
// must still be trustable and untrustable.
func runTrustCommand(workdir string, f flagValues, env map[string]string, stdout, stderr io.Writer) int {
	store, err := trust.NewStore(env)
	if err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return exitUsage
	}
	if f.list {
		return listTrusted(store, stdout, stderr)
	}
	dir := f.trustDir
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(workdir, dir)
	}
	if dir == "" {
		dir = "."
	}
	real, err := trust.ResolveFolder(dir)
	if f.trustCmd == "untrust" && err != nil {
		// A folder deleted or moved since it was trusted can still be
		// taken off the list by the path it had.
		real, err = filepath.Abs(dir)
	}
	if err != nil {
		fmt.Fprintf(stderr, "baton: %s: %v\n", f.trustCmd, err)
		return exitUsage
	}
	var changed bool
	if f.trustCmd == "trust" {
		changed, err = store.Add(real, time.Now())
	} else {
		changed, err = store.Remove(real)
	}
	if err != nil {
		fmt.Fprintf(stderr, "baton: %s: %v\n", f.trustCmd, err)
		return exitFailed
	}
	fmt.Fprintln(stdout, trustMessage(f.trustCmd, real, changed, env))
	return exitOK
}

// trustMessage says what changed, and what trusting a broad folder means.
func trustMessage(cmd, dir string, changed bool, env map[string]string) string {
	switch {
	case cmd == "untrust" && !changed:
		return fmt.Sprintf("%s was not trusted", dir)
	case cmd == "untrust":
		return fmt.Sprintf("no longer trusted: %s (its project files may only narrow baton again)", dir)
	case !changed:
		return fmt.Sprintf("%s is already trusted", dir)
	case trust.IsBroad(dir, env):
		return fmt.Sprintf("trusted: %s; note that baton's read-only tools can read any file under it without asking", dir)
	}
	return fmt.Sprintf("trusted: %s (its .baton/config.toml and agent files now apply in full)", dir)
}

// listTrusted prints the trusted folders in the order they were trusted.
func listTrusted(store *trust.Store, stdout, stderr io.Writer) int {
	folders, err := store.Folders()
	if err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return exitFailed
	}
	if len(folders) == 0 {
		fmt.Fprintln(stdout, "no trusted folders")
		return exitOK
	}
	for _, e := range folders {
		fmt.Fprintf(stdout, "%s\t%s\n", e.Path, e.TrustedAt.Local().Format("2006-01-02 15:04"))
	}
	return exitOK
}
