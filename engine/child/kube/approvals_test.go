package kube

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/hooks"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// authorizerFunc is an agent.Authorizer of a function.
type authorizerFunc func(context.Context, agent.ToolRequest) (tools.Withhold, error)

func (f authorizerFunc) Authorize(ctx context.Context, req agent.ToolRequest) (tools.Withhold, error) {
	return f(ctx, req)
}

// With approvals = "allow" a remote child's call goes to the session's
// policy as a hook's allow would (no card, deny and ask rules still
// hold), and the pane is told; a denial still reaches the child.
func TestPreApprovedCallsAreReported(t *testing.T) {
	var seen []string
	var notices []string
	deny := errors.New("denied by a deny rule")
	inner := authorizerFunc(func(_ context.Context, req agent.ToolRequest) (tools.Withhold, error) {
		seen = append(seen, req.Tool+":"+req.Hook)
		if req.Tool == "run_command" {
			return nil, deny
		}
		return nil, nil
	})
	p := preApproved{inner: inner, meta: event.Meta{Agent: "a1"}, emit: func(ev event.Event) {
		if n, ok := ev.(event.Notice); ok && n.Agent == "a1" {
			notices = append(notices, n.Text)
		}
	}}
	ctx := context.Background()
	if _, err := p.Authorize(ctx, agent.ToolRequest{Tool: "write_file"}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Authorize(ctx, agent.ToolRequest{Tool: "edit_file", Hook: hooks.Ask}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Authorize(ctx, agent.ToolRequest{Tool: "run_command"}); !errors.Is(err, deny) {
		t.Fatalf("err = %v, want the deny rule's", err)
	}
	if want := "write_file:allow edit_file:ask run_command:allow"; strings.Join(seen, " ") != want {
		t.Errorf("the session saw %q, want %q", seen, want)
	}
	if len(notices) != 1 || !strings.Contains(notices[0], `write_file pre-approved by [runner.kubernetes] approvals = "allow"`) {
		t.Errorf("notices = %q, want the one pre-approval reported", notices)
	}
}

// A runner of an approvals policy baton does not have is refused.
func TestNewRefusesUnknownApprovals(t *testing.T) {
	if _, err := New(Options{Image: "i", Approvals: "always"}); err == nil || !strings.Contains(err.Error(), `approvals "always"`) {
		t.Fatalf("err = %v", err)
	}
	if _, err := New(Options{}); err == nil || !strings.Contains(err.Error(), "[runner.kubernetes] image") {
		t.Fatalf("err = %v, want the missing image named", err)
	}
}

func TestReportLines(t *testing.T) {
	line := MarshalReport(Report{Where: "k8s ns/j", Latency: 5, Bundle: []byte{0, 1}})
	rep, ok := parseReport(line[:len(line)-1])
	if !ok || rep.Where != "k8s ns/j" || rep.Latency != 5 || string(rep.Bundle) != "\x00\x01" {
		t.Fatalf("parsed %+v %v from %s", rep, ok, line)
	}
	for _, protocol := range []string{`{"event":{"kind":"x"}}`, `{"result":{}}`, `{"kube":null}`} {
		if _, ok := parseReport([]byte(protocol)); ok {
			t.Errorf("%s read as a report", protocol)
		}
	}
}

func TestJobNames(t *testing.T) {
	for _, agentID := range []string{"a1", "Agent_With.Odd/Chars", strings.Repeat("x", 80), "---", ""} {
		name := jobName(agentID)
		if len(name) > 52 || !strings.HasPrefix(name, "baton-") || strings.Trim(name, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" || strings.HasSuffix(name, "-") {
			t.Errorf("jobName(%q) = %q, not a short DNS label", agentID, name)
		}
	}
	if first, second := jobName("a1"), jobName("a1"); first == second {
		t.Errorf("two children of one id got one Job name, %s", first)
	}
}
