package transcript

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// Environment of the helper process that TestSurvivesSIGKILL kills.
const (
	helperEnv     = "BATON_TRANSCRIPT_HELPER"
	helperRoot    = "BATON_TRANSCRIPT_ROOT"
	helperWS      = "BATON_TRANSCRIPT_WORKSPACE"
	helperID      = "BATON_TRANSCRIPT_ID"
	helperRecords = 100
)

// TestMain turns the test binary into the helper when the parent test
// re-executes it with helperEnv set.
func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "1" {
		if err := runHelper(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	os.Exit(m.Run())
}

// runHelper appends numbered records to the main and a child transcript
// from two goroutines, says "ready" once both have helperRecords, and keeps
// appending until it is killed.
func runHelper() error {
	store := NewStore(os.Getenv(helperRoot), nil)
	d, err := store.Open(os.Getenv(helperWS), os.Getenv(helperID))
	if err != nil {
		return err
	}
	errs := make(chan error, 2)
	ready := make(chan struct{}, 2)
	for _, agent := range []string{MainAgent, "explore-1"} {
		w, err := d.Writer(agent)
		if err != nil {
			return err
		}
		// Each goroutine ends with an append error or with the process.
		go func() {
			for n := 1; ; n++ {
				// Varying sizes up to 16 KiB make a kill inside a write likely.
				text := strings.Repeat("y", (n*997)%16384)
				if err := w.Append(KindEvent, agent, event{Type: "text_delta", Text: text, N: n}); err != nil {
					errs <- err
					return
				}
				if n == helperRecords {
					ready <- struct{}{}
				}
			}
		}()
	}
	for range 2 {
		select {
		case <-ready:
		case err := <-errs:
			return err
		}
	}
	fmt.Println("ready")
	return <-errs
}

func TestSurvivesSIGKILL(t *testing.T) {
	store, workspace, d := newSession(t, nil)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"=1", helperRoot+"="+store.root, helperWS+"="+workspace, helperID+"="+d.ID())
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if line != "ready\n" {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("helper said %q (%v), want ready", line, err)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("helper ended with %v, want killed", err)
	}

	for _, agent := range []string{MainAgent, "explore-1"} {
		recs, damage, err := d.Read(agent)
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) < helperRecords {
			t.Errorf("%s: %d records survived, want at least %d", agent, len(recs), helperRecords)
		}
		for i, rec := range recs {
			if n := dataOf[event](t, rec).N; n != i+1 {
				t.Fatalf("%s: record %d has n=%d: a completed record was lost", agent, i, n)
			}
		}
		if damage != nil && (damage.Corrupt != nil || damage.Line != len(recs)+1) {
			t.Errorf("%s: damage %+v beyond a cut last line", agent, damage)
		}
		t.Logf("%s: %d records, damage: %v", agent, len(recs), damage)
	}
	// The resumed session appends after whatever the kill left.
	writeTurn(t, writer(t, d, MainAgent), "resumed", usage{})
	recs, _, err := d.Read(MainAgent)
	if err != nil || dataOf[event](t, recs[len(recs)-1]).Status != "completed" {
		t.Errorf("append after the kill not read back (%v)", err)
	}
}
