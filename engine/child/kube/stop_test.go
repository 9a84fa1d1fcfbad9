package kube_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/child/kube"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// holdingBridgeEnv makes this test binary a baton-kube whose pod never
// ends by itself: it reports the pod running, passes on a line that is
// not of the child's protocol (a pod log gone wrong), then holds until
// it is told to stop (SIGTERM), when a real one deletes the Job.
const holdingBridgeEnv = "BATON_TEST_KUBE_HOLD"

// holdingBridge is that baton-kube; args are baton-kube's.
func holdingBridge(args []string) int {
	stop, cancel := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer cancel()
	job := ""
	for i, a := range args {
		if a == "--job" && i+1 < len(args) {
			job = args[i+1]
		}
	}
	if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
		return 2
	}
	_, _ = os.Stdout.Write(kube.MarshalReport(kube.Report{Where: "k8s default/" + job}))
	fmt.Println("{this is not a line of the protocol")
	<-stop.Done()
	fmt.Fprintln(os.Stderr, "baton-kube: deleting the Job "+job)
	return 0
}

// A child whose baton-kube passes on what baton cannot take is stopped:
// baton-kube is told to stop (SIGTERM), so it deletes the Job, and the
// child ends failed with what baton-kube said; its pane had been told
// where it ran.
func TestABrokenClusterChildStopsItsBridge(t *testing.T) {
	t.Setenv(holdingBridgeEnv, "1")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewServer(t, delegating("Explore", func(_ *llmtest.Request, w *llmtest.Writer) { w.Text("never asked") }))
	s := session(t, srv, "reg/baton:1", exe, func(c *engine.Config) { c.Kubernetes.Approvals = kube.ApprovalsAllow })
	var placed string
	evs := turnSeeing(t, s, "look", func(ev event.Event) {
		if p, ok := ev.(event.AgentPlaced); ok {
			placed = p.Where
		}
	})
	f := finished(t, evs)
	if !strings.HasPrefix(placed, "k8s default/baton-") {
		t.Fatalf("the pane was told it runs in %q", placed)
	}
	if f.Status != event.StatusFailed || !strings.Contains(f.Reason, "cannot take") || !strings.Contains(f.Reason, "baton-kube: deleting the Job") {
		t.Fatalf("child ended %s: %s", f.Status, f.Reason)
	}
}
