package kube

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/child/process"
	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/tools"
	"github.com/seed-e4e525a6/baton/engine/worktree"
)

// BridgeName is the command that reaches the cluster for baton, found
// next to baton's binary or on PATH.
const BridgeName = "baton-kube"

// Options configure the kubernetes runner ([runner.kubernetes]).
type Options struct {
	// Context is the kubeconfig context (empty: the current one);
	// Namespace the namespace (empty: the context's, else "default").
	Context   string
	Namespace string
	// Image is the image children run in: it holds baton and git.
	Image string
	// ServiceAccount and RuntimeClass name the pod's (empty: the
	// namespace's default account, the cluster's default runtime).
	ServiceAccount string
	RuntimeClass   string
	// CPU and Memory are Kubernetes quantities ("500m", "2Gi") that both
	// request and limit each pod; empty: none.
	CPU    string
	Memory string
	// TTLSeconds is how long the cluster keeps a finished Job (zero: ten
	// minutes); baton deletes those it started when they end.
	TTLSeconds int
	// Approvals is who decides the child's tool calls that would ask:
	// ApprovalsAsk (empty too) or ApprovalsAllow.
	Approvals string
	// Bridge is the baton-kube program (empty: next to baton, or on
	// PATH).
	Bridge string
	// Endpoint is where children send their model requests, the key
	// included.
	Endpoint llm.Config
}

// Where says where children of o run until their Job has started; then
// the pane is told "k8s <namespace>/<job>" and how long placing took.
func (o Options) Where() string {
	if o.Namespace != "" {
		return "k8s " + o.Namespace
	}
	return "k8s"
}

// New returns a runner that places each child in a Job of its own. It
// does not reach the cluster until a child starts.
func New(opts Options) (child.Runner, error) {
	if opts.Image == "" {
		return nil, errors.New("the kubernetes runner needs an image ([runner.kubernetes] image)")
	}
	switch opts.Approvals {
	case "", ApprovalsAsk, ApprovalsAllow:
	default:
		return nil, fmt.Errorf("[runner.kubernetes] approvals %q: want %q or %q", opts.Approvals, ApprovalsAsk, ApprovalsAllow)
	}
	p := process.New(process.Options{Launcher: &launcher{opts: opts}, Endpoint: opts.Endpoint, Where: opts.Where()})
	return runner{Runner: p, approvals: opts.Approvals}, nil
}

// launcher starts each child's baton-kube.
type launcher struct {
	opts Options
}

// Launch implements process.Launcher: it bundles the child's workspace
// and starts baton-kube, which places the Job once the spec comes on
// its input.
func (l *launcher) Launch(ctx context.Context, job child.Job, args []string, stderr io.Writer) (process.Proc, error) {
	spec := job.Spec
	if spec.Toolbox.CanWrite() && spec.Worktree == "" {
		return nil, errors.New("a child that writes runs on a cluster only in a worktree of its own (isolation = \"worktree\"), never in the person's tree")
	}
	bridge, err := findBridge(l.opts.Bridge)
	if err != nil {
		return nil, err
	}
	repo, err := worktree.Open(ctx, spec.Workspace)
	if err != nil {
		return nil, fmt.Errorf("the kubernetes runner sends the workspace as a git bundle: %w", err)
	}
	name := jobName(string(spec.Meta.Agent))
	scratch, err := os.MkdirTemp("", "baton-kube-")
	if err != nil {
		return nil, fmt.Errorf("bundle the workspace: %w", err)
	}
	bundle := filepath.Join(scratch, "workspace.bundle")
	ref := "refs/baton/kube/" + name
	base, err := repo.Bundle(ctx, scratch, bundle, ref)
	if err == nil {
		err = bundleFits(bundle)
	}
	if err != nil {
		repo.Forget(context.WithoutCancel(ctx), ref)
		return nil, errors.Join(err, os.RemoveAll(scratch))
	}
	p := &proc{job: job, repo: repo, ref: ref, base: base, scratch: scratch}
	p.cmd = exec.Command(bridge, l.bridgeArgs(job, name, bundle, ref, repo.Top, args)...)
	// baton-kube needs the kubeconfig and its credentials, never baton's
	// own secrets: the key travels in the spec alone.
	p.cmd.Env = tools.WithoutSecrets(os.Environ())
	p.cmd.Stderr = stderr
	if err := p.start(); err != nil {
		return nil, errors.Join(fmt.Errorf("start %s: %w", bridge, err), p.release())
	}
	return p, nil
}

// bridgeArgs are baton-kube's arguments for one child.
func (l *launcher) bridgeArgs(job child.Job, name, bundle, ref, top string, args []string) []string {
	o := l.opts
	out := []string{"run", "--job", name, "--image", o.Image, "--bundle", bundle, "--bundle-ref", ref,
		"--workspace", top, "--endpoint", o.Endpoint.BaseURL}
	for flag, v := range map[string]string{"--context": o.Context, "--namespace": o.Namespace,
		"--service-account": o.ServiceAccount, "--runtime-class": o.RuntimeClass, "--cpu": o.CPU, "--memory": o.Memory} {
		if v != "" {
			out = append(out, flag, v)
		}
	}
	if o.TTLSeconds > 0 {
		out = append(out, "--ttl-seconds", strconv.Itoa(o.TTLSeconds))
	}
	if t := job.Spec.Timeout; t > 0 {
		out = append(out, "--deadline", t.String())
	}
	return append(append(out, "--"), args...)
}

// findBridge is baton-kube: path when given, else next to baton's
// binary, else on PATH.
func findBridge(path string) (string, error) {
	if path != "" {
		return path, nil
	}
	if exe, err := os.Executable(); err == nil {
		near := filepath.Join(filepath.Dir(exe), BridgeName)
		if info, err := os.Stat(near); err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0 {
			return near, nil
		}
	}
	found, err := exec.LookPath(BridgeName)
	if err != nil {
		return "", fmt.Errorf("the kubernetes runner needs %s next to baton or on PATH (make build or make install builds it): %w", BridgeName, err)
	}
	return found, nil
}

// bundleFits refuses a bundle larger than the runner sends.
func bundleFits(bundle string) error {
	info, err := os.Stat(bundle)
	if err != nil {
		return fmt.Errorf("bundle the workspace: %w", err)
	}
	if info.Size() > MaxBundle {
		return fmt.Errorf("the workspace bundle is %.1f MiB, more than the kubernetes runner sends (%d MiB): this workspace cannot run on a cluster", float64(info.Size())/(1<<20), MaxBundle>>20)
	}
	return nil
}

// jobName is a Job name for the child agent: a DNS label, unique.
func jobName(agent string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(agent) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else if b.Len() > 0 && !strings.HasSuffix(b.String(), "-") {
			b.WriteByte('-')
		}
	}
	id := strings.Trim(b.String(), "-")
	if len(id) > 30 {
		id = strings.Trim(id[:30], "-")
	}
	suffix := strings.ToLower(rand.Text()[:6])
	if id == "" {
		return "baton-" + suffix
	}
	return "baton-" + id + "-" + suffix
}
