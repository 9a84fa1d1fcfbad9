package tools

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/sandbox"
)

// plantOnPath is a command that leaves an `ls` in the workspace's bin/,
// which is on the person's PATH before /bin, and builds its own bin/app.
const plantOnPath = `mkdir -p bin && printf '#!/bin/sh\ntouch %s\n' > bin/ls && chmod +x bin/ls && ` +
	`printf '#!/bin/sh\necho app\n' > bin/app && chmod +x bin/app`

// personRunsLs runs `ls` as the person's shell would, with path, in dir,
// and reports whether the planted program ran.
func personRunsLs(t *testing.T, dir, path, marker string) bool {
	t.Helper()
	cmd := exec.Command("sh", "-c", "ls >/dev/null")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+path)
	_ = cmd.Run()
	_, err := os.Stat(marker)
	return err == nil
}

// TestProgramPlantedOnPathTakenAway: a folder of the workspace on the
// person's PATH (direnv's PATH_add bin) gets a planted `ls` from a
// sandboxed command; afterwards the person's `ls` is the real one, the
// command's own bin/app is still there, and the note says what was
// taken away. Unsandboxed, the same command does plant.
func TestProgramPlantedOnPathTakenAway(t *testing.T) {
	if _, err := exec.LookPath("ls"); err != nil {
		t.Skip("no ls")
	}
	for _, kernel := range []bool{true, false} {
		ws := newTree(t, map[string]string{"main.go": "package main\n"})
		path := filepath.Join(ws.Root(), "bin") + ":/usr/bin:/bin"
		t.Setenv("PATH", path)
		marker := filepath.Join(t.TempDir(), "pwned")
		script := strings.Replace(plantOnPath, "%s", marker, 1)
		note := ""
		if kernel {
			if !sandbox.Available() {
				continue
			}
			off := newTree(t, map[string]string{})
			offMarker := filepath.Join(t.TempDir(), "pwned")
			mustCall(t, RunCommand(off, Limits{}, sandbox.Policy{Mode: sandbox.Off}), map[string]any{"command": strings.Replace(plantOnPath, "%s", offMarker, 1)})
			if !personRunsLs(t, off.Root(), filepath.Join(off.Root(), "bin")+":/usr/bin:/bin", offMarker) {
				t.Fatal("unsandboxed, the planted ls did not run (this case proves nothing)")
			}
			note = mustCall(t, toolByName(t, ws, Limits{}, "run_command"), map[string]any{"command": script}).Output
		} else {
			enterGuard(ws.Root(), testBox(ws))
			cmd := exec.Command("sh", "-c", script)
			cmd.Dir = ws.Root()
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("the command failed: %v\n%s", err, out)
			}
			note = leaveGuard(ws.Root())
		}
		if personRunsLs(t, ws.Root(), path, marker) {
			t.Fatalf("kernel %v: the person's ls ran the planted one; baton said:\n%s", kernel, note)
		}
		if _, err := os.Stat(filepath.Join(ws.Root(), "bin", "app")); err != nil {
			t.Errorf("kernel %v: the command's own bin/app was taken away: %v", kernel, err)
		}
		if !strings.Contains(note, "bin/ls: removed (the command created it)") {
			t.Errorf("kernel %v: the note does not name bin/ls:\n%s", kernel, note)
		}
	}
}

// TestBatonNeverRunsAPlantedGit: baton runs git itself to read the
// index after a command; a `git` the command left on the person's PATH
// (in the workspace's bin/) must not be the one it runs, though the
// command also made the repository baton then looks at (the workspace
// had none).
func TestBatonNeverRunsAPlantedGit(t *testing.T) {
	ws := newTree(t, map[string]string{"a.txt": "a\n"})
	t.Setenv("PATH", filepath.Join(ws.Root(), "bin")+":"+os.Getenv("PATH"))
	marker := filepath.Join(t.TempDir(), "pwned")
	script := "git init -q && mkdir -p bin && printf '#!/bin/sh\\ntouch " + marker + "\\n' > bin/git && chmod +x bin/git"
	enterGuard(ws.Root(), testBox(ws))
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir = ws.Root()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the command failed: %v\n%s", err, out)
	}
	note := leaveGuard(ws.Root())
	if _, err := os.Stat(marker); err == nil {
		t.Fatalf("baton ran the planted git; it said:\n%s", note)
	}
}
