//go:build linux

package ui

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// jobProbeEnv makes the test binary a probe of job control (see jobProbe).
const jobProbeEnv = "BATON_UI_JOB_PROBE"

// jobProbe runs, in a process of its own, what cannot run in the test
// process: "stoppable" prints whether its group could be stopped, "stop"
// stops its job as Ctrl+Z does and says when it went on.
func jobProbe() {
	switch os.Getenv(jobProbeEnv) {
	case "stoppable":
		fmt.Print(stoppable())
		os.Exit(0)
	case "stop":
		stopJob()
		fmt.Print("continued")
		os.Exit(0)
	}
}

// probe starts the test binary as a job-control probe in a process group
// of its own (session true: in a session of its own too).
func probe(t *testing.T, what string, session bool) *exec.Cmd {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "-test.run=^$")
	cmd.Env = append(os.Environ(), jobProbeEnv+"="+what)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: !session, Setsid: session}
	return cmd
}

// A process group whose parent is in another group of its session (a
// shell's job) can be stopped; a session's leader, with no one in its
// session to continue it (baton run straight by tmux), cannot.
func TestStoppableTellsAJobFromAnOrphanedGroup(t *testing.T) {
	for _, c := range []struct {
		session bool
		want    string
	}{{false, "true"}, {true, "false"}} {
		out, err := probe(t, "stoppable", c.session).Output()
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != c.want {
			t.Errorf("own session %v: stoppable says %q, want %q", c.session, out, c.want)
		}
	}
	_ = stoppable() // and here, whatever group go test left this process in
}

// stopJob really stops its process group with SIGTSTP, as the shell's
// Ctrl+Z does, and returns once a SIGCONT continues it.
func TestStopJobStopsTheGroupUntilItContinues(t *testing.T) {
	cmd := probe(t, "stop", false)
	var out strings.Builder
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var ws syscall.WaitStatus
	if _, err := syscall.Wait4(cmd.Process.Pid, &ws, syscall.WUNTRACED, nil); err != nil {
		t.Fatal(err)
	}
	if !ws.Stopped() || ws.StopSignal() != syscall.SIGTSTP {
		t.Fatalf("the probe did not stop on SIGTSTP: %v", ws)
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if out.String() != "continued" {
		t.Fatalf("the probe said %q after SIGCONT", out.String())
	}
}

// The fields of /proc/PID/stat are read after the command's name, which
// may itself hold parentheses, spaces and what looks like fields.
func TestParseStatReadsPastAHostileName(t *testing.T) {
	st, ok := parseStat("4242 () S 1 1 1 () R 17 4242 4000 0 -1 4194560 0")
	if !ok || st != (procStat{parent: 17, group: 4242, session: 4000}) {
		t.Fatalf("parsed %+v, %v", st, ok)
	}
	for _, bad := range []string{"", "4242 (name", "4242 (n) R 17", "4242 (n) R x 1 2"} {
		if _, ok := parseStat(bad); ok {
			t.Errorf("%q parsed", bad)
		}
	}
	if st, ok := readStat(os.Getpid()); !ok || st.parent != os.Getppid() || st.group != syscall.Getpgrp() {
		t.Fatalf("this process reads as %+v, %v", st, ok)
	}
}
