package cluster

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"

	"github.com/seed-e4e525a6/baton/engine/child/kube"
)

// Bounds on the cluster's answers: none of them waits forever.
const (
	// callTimeout bounds one request that is not a stream.
	callTimeout = 30 * time.Second
	// DefaultStartTimeout bounds the wait for the pod to start (pulling
	// the image, scheduling).
	DefaultStartTimeout = 5 * time.Minute
	// maxSpecLine bounds the spec line baton sends first.
	maxSpecLine = 64 << 20
)

// Attacher connects r to the standard input of a running pod's
// container until r ends or ctx does.
type Attacher func(ctx context.Context, namespace, pod, container string, r io.Reader) error

// Cluster is what a child is placed with.
type Cluster struct {
	Client kubernetes.Interface
	Attach Attacher
	// Lookup resolves the endpoint's host for the NetworkPolicy (nil:
	// the system resolver).
	Lookup func(host string) ([]net.IP, error)
	// StartTimeout bounds the wait for the pod (zero: the default).
	StartTimeout time.Duration
}

// Run places one child: it reads the spec line from in, makes the
// Secret, the ConfigMaps of the workspace bundle, NetworkPolicy and Job, waits for the pod, reports
// where it runs on out, then copies the pod's log to out (the child's
// protocol lines; anything else to errs) and the rest of in to the pod's
// input, until the pod ends or ctx does (baton stopped it). Whatever way
// it ends, what it made is deleted, the Job with foreground propagation.
func (c Cluster) Run(ctx context.Context, cfg Config, in io.Reader, out, errs io.Writer) error {
	begin := time.Now()
	if err := cfg.Check(); err != nil {
		return err
	}
	lines := bufio.NewReaderSize(in, 64<<10)
	spec, err := readSpecLine(lines)
	if err != nil {
		return err
	}
	notice, err := c.create(ctx, cfg, spec)
	defer c.delete(cfg)
	if err != nil {
		return err
	}
	pod, err := c.waitStarted(ctx, cfg)
	if err != nil {
		return err
	}
	rep := kube.Report{Where: "k8s " + cfg.Namespace + "/" + cfg.Job, Latency: time.Since(begin), Notice: notice}
	if _, err := out.Write(kube.MarshalReport(rep)); err != nil {
		return err
	}
	if pod.Status.Phase == corev1.PodRunning && c.Attach != nil {
		// Ends when baton's input does (after the child's result, or
		// when baton goes), or ctx does.
		go func() {
			if err := c.Attach(ctx, cfg.Namespace, pod.Name, container, lines); err != nil && ctx.Err() == nil {
				fmt.Fprintf(errs, "attach to the pod %s/%s: %v\n", cfg.Namespace, pod.Name, err)
			}
		}()
	}
	if err := c.follow(ctx, cfg, pod.Name, out, errs); err != nil {
		return err
	}
	return c.ended(ctx, cfg)
}

// readSpecLine reads the first line baton sends: the child's spec.
func readSpecLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		part, err := r.ReadSlice('\n')
		line = append(line, part...)
		if len(line) > maxSpecLine {
			return nil, fmt.Errorf("the spec is longer than %d MiB", maxSpecLine>>20)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read the spec from baton: %w", err)
		}
		return line, nil
	}
}

// create makes the child's objects, the Job last; notice says what could
// not be made but is not needed (the NetworkPolicy).
func (c Cluster) create(ctx context.Context, cfg Config, spec []byte) (notice string, err error) {
	job, err := cfg.JobObject()
	if err != nil {
		return "", err
	}
	cctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	if _, err := c.Client.CoreV1().Secrets(cfg.Namespace).Create(cctx, cfg.Secret(spec), metav1.CreateOptions{}); err != nil {
		return "", cfg.refused("create the spec's Secret", err)
	}
	for i, cm := range cfg.ConfigMaps() {
		if _, err := c.Client.CoreV1().ConfigMaps(cfg.Namespace).Create(cctx, cm, metav1.CreateOptions{}); err != nil {
			return "", cfg.refused(fmt.Sprintf("create the workspace's ConfigMap %s (part %d)", cm.Name, i), err)
		}
	}
	notice = c.restrictEgress(cctx, cfg)
	if _, err := c.Client.BatchV1().Jobs(cfg.Namespace).Create(cctx, job, metav1.CreateOptions{}); err != nil {
		return notice, cfg.refused("create the Job", err)
	}
	return notice, nil
}

// restrictEgress makes the NetworkPolicy when the cluster has them, and
// says so when it could not.
func (c Cluster) restrictEgress(ctx context.Context, cfg Config) string {
	const unrestricted = "the child's network is not restricted: "
	if !c.hasNetworkPolicies() {
		return unrestricted + "the cluster offers no NetworkPolicy (networking.k8s.io/v1)"
	}
	lookup := c.Lookup
	if lookup == nil {
		lookup = func(host string) ([]net.IP, error) { return net.DefaultResolver.LookupIP(ctx, "ip", host) }
	}
	np, err := cfg.NetworkPolicy(lookup)
	if err == nil {
		_, err = c.Client.NetworkingV1().NetworkPolicies(cfg.Namespace).Create(ctx, np, metav1.CreateOptions{})
	}
	if err != nil {
		return unrestricted + "its NetworkPolicy could not be made: " + err.Error()
	}
	return ""
}

// hasNetworkPolicies reports whether the cluster serves NetworkPolicy.
func (c Cluster) hasNetworkPolicies() bool {
	list, err := c.Client.Discovery().ServerResourcesForGroupVersion("networking.k8s.io/v1")
	if err != nil || list == nil {
		return false
	}
	return slices.ContainsFunc(list.APIResources, func(r metav1.APIResource) bool { return r.Name == "networkpolicies" })
}

// delete deletes what create made: the Job with foreground propagation
// (its pod goes first), then the Secret, every ConfigMap of the
// workspace bundle and the NetworkPolicy.
func (c Cluster) delete(cfg Config) {
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	fg := metav1.DeletePropagationForeground
	_ = c.Client.BatchV1().Jobs(cfg.Namespace).Delete(ctx, cfg.Job, metav1.DeleteOptions{PropagationPolicy: &fg})
	_ = c.Client.CoreV1().Secrets(cfg.Namespace).Delete(ctx, cfg.Job+"-spec", metav1.DeleteOptions{})
	for i := range kube.SplitBundle(cfg.Bundle) {
		_ = c.Client.CoreV1().ConfigMaps(cfg.Namespace).Delete(ctx, cfg.partName(i), metav1.DeleteOptions{})
	}
	_ = c.Client.NetworkingV1().NetworkPolicies(cfg.Namespace).Delete(ctx, cfg.Job+"-egress", metav1.DeleteOptions{})
}

// refused is err from the cluster, naming the context and what it
// refused.
func (cfg Config) refused(what string, err error) error {
	return fmt.Errorf("kube context %q, namespace %s: %s: %w", cfg.Context, cfg.Namespace, what, err)
}

// waitStarted waits until the Job's pod runs (or has already ended),
// and fails at once on a state it cannot leave by itself.
func (c Cluster) waitStarted(ctx context.Context, cfg Config) (*corev1.Pod, error) {
	timeout := c.StartTimeout
	if timeout <= 0 {
		timeout = DefaultStartTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	pod, err := c.watchPod(ctx, cfg, func(p *corev1.Pod) (bool, error) {
		if p.Status.Phase != corev1.PodPending {
			return true, nil
		}
		return false, cfg.stuck(p)
	})
	if errors.Is(err, context.DeadlineExceeded) {
		return nil, cfg.refused("start the pod", fmt.Errorf("it did not start within %s", timeout))
	}
	return pod, err
}

// stuck is the error of a pending pod that will not start by itself.
func (cfg Config) stuck(p *corev1.Pod) error {
	for _, s := range p.Status.ContainerStatuses {
		if s.State.Waiting == nil {
			continue
		}
		switch reason := s.State.Waiting.Reason; reason {
		case "ErrImagePull", "ImagePullBackOff", "InvalidImageName":
			return cfg.refused("start the pod", fmt.Errorf("the image %q cannot be pulled (%s): %s", cfg.Image, reason, s.State.Waiting.Message))
		case "CreateContainerConfigError", "CreateContainerError", "RunContainerError":
			return cfg.refused("start the pod", fmt.Errorf("%s: %s", reason, s.State.Waiting.Message))
		}
	}
	return nil
}

// watchPod waits for the Job's pod to satisfy done, or done's error.
func (c Cluster) watchPod(ctx context.Context, cfg Config, done func(*corev1.Pod) (bool, error)) (*corev1.Pod, error) {
	pods := c.Client.CoreV1().Pods(cfg.Namespace)
	selector := metav1.ListOptions{LabelSelector: jobLabel + "=" + cfg.Job}
	// Watched before it is listed, so no change falls between the two.
	w, err := pods.Watch(ctx, selector)
	if err != nil {
		return nil, cfg.refused("watch the Job's pod", err)
	}
	defer w.Stop()
	list, err := pods.List(ctx, selector)
	if err != nil {
		return nil, cfg.refused("list the Job's pod", err)
	}
	for i := range list.Items {
		if ok, err := done(&list.Items[i]); ok || err != nil {
			return &list.Items[i], err
		}
	}
	for {
		select {
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		case ev, open := <-w.ResultChan():
			if !open {
				return nil, cfg.refused("watch the Job's pod", errors.New("the watch ended"))
			}
			p, isPod := ev.Object.(*corev1.Pod)
			if !isPod || (ev.Type != watch.Added && ev.Type != watch.Modified) {
				continue
			}
			if ok, err := done(p); ok || err != nil {
				return p, err
			}
		}
	}
}

// follow copies the pod's log until it ends: lines of the child's
// protocol (JSON objects) to out, the rest (what it wrote on its
// standard error) to errs.
func (c Cluster) follow(ctx context.Context, cfg Config, pod string, out, errs io.Writer) error {
	stream, err := c.Client.CoreV1().Pods(cfg.Namespace).GetLogs(pod, &corev1.PodLogOptions{Container: container, Follow: true}).Stream(ctx)
	if err != nil {
		return cfg.refused("follow the pod's log", err)
	}
	defer stream.Close()
	r := bufio.NewReaderSize(stream, 64<<10)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			w := errs
			if bytes.HasPrefix(line, []byte("{")) {
				w = out
			}
			if _, werr := w.Write(line); werr != nil {
				return werr
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			if ctx.Err() != nil {
				return context.Cause(ctx)
			}
			return cfg.refused("follow the pod's log", err)
		}
	}
}

// ended waits for the pod to end once its log has, and says how it did
// when not well.
func (c Cluster) ended(ctx context.Context, cfg Config) error {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	pod, err := c.watchPod(ctx, cfg, func(p *corev1.Pod) (bool, error) {
		return p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed, nil
	})
	if err != nil {
		if apierrors.IsNotFound(err) {
			return nil
		}
		return cfg.refused("wait for the pod to end", err)
	}
	if pod.Status.Phase == corev1.PodSucceeded {
		return nil
	}
	for _, s := range pod.Status.ContainerStatuses {
		if t := s.State.Terminated; t != nil {
			return fmt.Errorf("the child's pod %s/%s ended: %s (exit status %d) %s", cfg.Namespace, pod.Name, t.Reason, t.ExitCode, t.Message)
		}
	}
	return fmt.Errorf("the child's pod %s/%s failed: %s %s", cfg.Namespace, pod.Name, pod.Status.Reason, pod.Status.Message)
}
