package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"testing"

	"go.uber.org/goleak"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"

	"github.com/seed-e4e525a6/baton/engine/child/kube"
)

// These tests place children with client-go's fake clientset: no
// cluster can be reached here. The fake has no Job controller, so a
// reactor plays it (the Job's pod appears as the scheduler would make
// it), and another scripts the pod's log. The pod template itself is run
// for real by podman kube play (podman_test.go), and against a cluster
// by TestRealCluster when KUBECONFIG is set.

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const (
	testKey  = "sk-kube-secret-key"
	testSpec = `{"spec":{"prompt":"go","endpoint":{"base_url":"http://10.0.0.9:8080/v1","api_key":"` + testKey + `"}}}` + "\n"
)

func testConfig() Config {
	return Config{Context: "test-ctx", Namespace: "ns1", Job: "baton-a1-xyz", Agent: "a1", Image: "registry.example/baton:1",
		ServiceAccount: "runner", RuntimeClass: "gvisor", CPU: "500m", Memory: "1Gi", TTLSeconds: 120,
		Bundle: []byte("bundle-bytes"), BundleRef: "refs/baton/kube/baton-a1-xyz", Workspace: "/home/p/wt/a1",
		Endpoint: "http://10.0.0.9:8080/v1"}
}

// fakeCluster is a fake clientset whose Jobs get a pod in the given
// phase, and whose pod log is log; when the log has been read the pod
// ends in end.
type fakeCluster struct {
	client *fake.Clientset
	log    string
	phase  corev1.PodPhase
	end    corev1.PodStatus
	// waiting, when set, is the pod's container waiting state.
	waiting *corev1.ContainerStateWaiting

	// attachDone is closed once the attached input has ended.
	attachDone chan struct{}

	mu       sync.Mutex
	attached bytes.Buffer
	logOpts  *corev1.PodLogOptions
}

func newFakeCluster(log string) *fakeCluster {
	f := &fakeCluster{client: fake.NewClientset(), log: log, phase: corev1.PodRunning, attachDone: make(chan struct{}),
		end: corev1.PodStatus{Phase: corev1.PodSucceeded}}
	f.client.PrependReactor("create", "jobs", func(a k8stesting.Action) (bool, runtime.Object, error) {
		job := a.(k8stesting.CreateAction).GetObject().(*batchv1.Job)
		pod := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: job.Name + "-pod1", Namespace: job.Namespace, Labels: job.Spec.Template.Labels},
			Spec:       job.Spec.Template.Spec,
			Status:     corev1.PodStatus{Phase: f.phase},
		}
		if f.waiting != nil {
			pod.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: container, State: corev1.ContainerState{Waiting: f.waiting}}}
		}
		if err := f.client.Tracker().Create(schema.GroupVersionResource{Version: "v1", Resource: "pods"}, pod, job.Namespace); err != nil {
			return true, nil, err
		}
		return false, nil, nil
	})
	f.client.PrependReactor("get", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
		if a.GetSubresource() != "log" {
			return false, nil, nil
		}
		f.mu.Lock()
		f.logOpts = a.(k8stesting.GenericAction).GetValue().(*corev1.PodLogOptions)
		f.mu.Unlock()
		pods := f.client.Tracker()
		obj, err := pods.Get(schema.GroupVersionResource{Version: "v1", Resource: "pods"}, a.GetNamespace(), "baton-a1-xyz-pod1")
		if err != nil {
			return true, nil, err
		}
		pod := obj.(*corev1.Pod).DeepCopy()
		pod.Status = f.end
		if err := pods.Update(schema.GroupVersionResource{Version: "v1", Resource: "pods"}, pod, a.GetNamespace()); err != nil {
			return true, nil, err
		}
		return true, &runtime.Unknown{Raw: []byte(f.log)}, nil
	})
	return f
}

// cluster is the Cluster of f, attaching into f.attached.
func (f *fakeCluster) cluster() Cluster {
	return Cluster{Client: f.client, Lookup: func(string) ([]net.IP, error) { return []net.IP{net.ParseIP("10.0.0.9")}, nil },
		Attach: func(ctx context.Context, namespace, pod, container string, r io.Reader) error {
			data, err := io.ReadAll(r)
			f.mu.Lock()
			f.attached.Write(data)
			f.mu.Unlock()
			close(f.attachDone)
			return err
		}}
}

// deletes lists the deletions f saw, as "resource/name propagation".
func (f *fakeCluster) deletes() []string {
	var out []string
	for _, a := range f.client.Actions() {
		if d, ok := a.(k8stesting.DeleteAction); ok {
			p := ""
			if pp := d.GetDeleteOptions().PropagationPolicy; pp != nil {
				p = " " + string(*pp)
			}
			out = append(out, d.GetResource().Resource+"/"+d.GetName()+p)
		}
	}
	return out
}

// run runs cfg on f with input in, and returns what came out.
func run(t *testing.T, ctx context.Context, c Cluster, cfg Config, in string) (out, errs string, err error) {
	t.Helper()
	var o, e bytes.Buffer
	err = c.Run(ctx, cfg, strings.NewReader(in), &o, &e)
	return o.String(), e.String(), err
}

func TestRunPlacesTheJobAndFollowsItsLog(t *testing.T) {
	log := `{"event":{"kind":"text"}}` + "\nbaton child: a warning on stderr\n" + `{"result":{"status":"done"}}` + "\n"
	f := newFakeCluster(log)
	f.client.Resources = []*metav1.APIResourceList{{GroupVersion: "networking.k8s.io/v1", APIResources: []metav1.APIResource{{Name: "networkpolicies"}}}}
	out, errs, err := run(t, context.Background(), f.cluster(), testConfig(), testSpec+`{"reply":{"id":1}}`+"\n")
	if err != nil {
		t.Fatalf("Run: %v (stderr %q)", err, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 {
		t.Fatalf("out = %q, want the placement and the two protocol lines", out)
	}
	var placed struct{ Kube kube.Report }
	if err := json.Unmarshal([]byte(lines[0]), &placed); err != nil || placed.Kube.Where != "k8s ns1/baton-a1-xyz" || placed.Kube.Notice != "" {
		t.Errorf("first line = %s (%v), want where k8s ns1/baton-a1-xyz and no notice", lines[0], err)
	}
	if lines[1] != `{"event":{"kind":"text"}}` || lines[2] != `{"result":{"status":"done"}}` {
		t.Errorf("protocol lines = %q", lines[1:])
	}
	if !strings.Contains(errs, "a warning on stderr") {
		t.Errorf("stderr = %q, want the pod's non-protocol line", errs)
	}
	<-f.attachDone
	f.mu.Lock()
	attached, opts := f.attached.String(), f.logOpts
	f.mu.Unlock()
	if attached != `{"reply":{"id":1}}`+"\n" {
		t.Errorf("attached input = %q, want what followed the spec", attached)
	}
	if opts == nil || !opts.Follow || opts.Container != container {
		t.Errorf("log options = %+v, want the child container's log followed", opts)
	}
	want := []string{"jobs/baton-a1-xyz Foreground", "secrets/baton-a1-xyz-spec", "configmaps/baton-a1-xyz-workspace-0", "networkpolicies/baton-a1-xyz-egress"}
	if got := f.deletes(); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("deletes = %q, want %q", got, want)
	}
}

func TestTheJobsSpec(t *testing.T) {
	f := newFakeCluster("")
	f.client.Resources = []*metav1.APIResourceList{{GroupVersion: "networking.k8s.io/v1", APIResources: []metav1.APIResource{{Name: "networkpolicies"}}}}
	var made []runtime.Object
	f.client.PrependReactor("create", "*", func(a k8stesting.Action) (bool, runtime.Object, error) {
		made = append(made, a.(k8stesting.CreateAction).GetObject().DeepCopyObject())
		return false, nil, nil
	})
	if _, errs, err := run(t, context.Background(), f.cluster(), testConfig(), testSpec); err != nil {
		t.Fatalf("Run: %v (%s)", err, errs)
	}
	var job *batchv1.Job
	var secret *corev1.Secret
	var cm *corev1.ConfigMap
	for _, o := range made {
		switch o := o.(type) {
		case *batchv1.Job:
			job = o
		case *corev1.Secret:
			secret = o
		case *corev1.ConfigMap:
			cm = o
		}
		// The key is in the Secret and nowhere else.
		data, _ := json.Marshal(o)
		if _, isSecret := o.(*corev1.Secret); !isSecret && (bytes.Contains(data, []byte(testKey))) {
			t.Errorf("%T holds the key: %s", o, data)
		}
	}
	if job == nil || secret == nil || cm == nil {
		t.Fatalf("made %d objects, want a Job, a Secret and a ConfigMap", len(made))
	}
	if string(secret.Data[specKey]) != testSpec {
		t.Errorf("Secret holds %q, want the spec line", secret.Data[specKey])
	}
	if string(cm.BinaryData[partKey]) != "bundle-bytes" {
		t.Errorf("ConfigMap holds %q, want the bundle", cm.BinaryData[partKey])
	}
	if want := kube.DigestOf([]byte("bundle-bytes")).Marshal(); !bytes.Equal(secret.Data[digestKey], want) {
		t.Errorf("Secret's digest = %s, want %s", secret.Data[digestKey], want)
	}
	s := job.Spec
	if s.BackoffLimit == nil || *s.BackoffLimit != 0 || s.TTLSecondsAfterFinished == nil || *s.TTLSecondsAfterFinished != 120 {
		t.Errorf("backoffLimit %v, ttl %v; want 0 and 120", s.BackoffLimit, s.TTLSecondsAfterFinished)
	}
	pod := s.Template.Spec
	c := pod.Containers[0]
	if c.Image != "registry.example/baton:1" || strings.Join(c.Command, " ") != "baton __kube-child a1" || !c.Stdin || !c.StdinOnce {
		t.Errorf("container = %s %q stdin %v once %v", c.Image, c.Command, c.Stdin, c.StdinOnce)
	}
	if pod.ServiceAccountName != "runner" || pod.RuntimeClassName == nil || *pod.RuntimeClassName != "gvisor" || pod.RestartPolicy != corev1.RestartPolicyNever {
		t.Errorf("pod: account %q runtime %v restart %s", pod.ServiceAccountName, pod.RuntimeClassName, pod.RestartPolicy)
	}
	if pod.AutomountServiceAccountToken == nil || *pod.AutomountServiceAccountToken {
		t.Error("the pod mounts its service account's token")
	}
	if c.Resources.Limits.Cpu().String() != "500m" || c.Resources.Limits.Memory().String() != "1Gi" {
		t.Errorf("limits = %v", c.Resources.Limits)
	}
	env := map[string]string{}
	for _, e := range c.Env {
		env[e.Name] = e.Value
	}
	if env[kube.EnvWorkspace] != "/home/p/wt/a1" || env[kube.EnvRef] != "refs/baton/kube/baton-a1-xyz" || env[kube.EnvSpec] != "/baton/spec/spec.json" ||
		env[kube.EnvHidden] != specDir || env[kube.EnvBundleDigest] != "/baton/spec/workspace.json" || env[kube.EnvBundleParts] != "/baton/workspace/0/part" {
		t.Errorf("env = %v", env)
	}
}

func TestNetworkPolicy(t *testing.T) {
	t.Run("made when the cluster has them", func(t *testing.T) {
		f := newFakeCluster("")
		f.client.Resources = []*metav1.APIResourceList{{GroupVersion: "networking.k8s.io/v1", APIResources: []metav1.APIResource{{Name: "networkpolicies"}}}}
		if _, _, err := run(t, context.Background(), f.cluster(), testConfig(), testSpec); err != nil {
			t.Fatal(err)
		}
		var made bool
		for _, a := range f.client.Actions() {
			if c, ok := a.(k8stesting.CreateAction); ok && a.GetResource().Resource == "networkpolicies" {
				made = true
				np, _ := json.Marshal(c.GetObject())
				if !bytes.Contains(np, []byte(`"cidr":"10.0.0.9/32"`)) || !bytes.Contains(np, []byte(`"port":8080`)) || !bytes.Contains(np, []byte(`"Egress"`)) {
					t.Errorf("NetworkPolicy = %s, want egress to 10.0.0.9:8080", np)
				}
			}
		}
		if !made {
			t.Error("no NetworkPolicy was made")
		}
	})
	t.Run("the pane is told when the cluster has none", func(t *testing.T) {
		f := newFakeCluster("")
		out, _, err := run(t, context.Background(), f.cluster(), testConfig(), testSpec)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out, "the child's network is not restricted: the cluster offers no NetworkPolicy") {
			t.Errorf("out = %q, want a notice that egress is not restricted", out)
		}
	})
}

func TestRunFailures(t *testing.T) {
	t.Run("a refused Job names the context", func(t *testing.T) {
		f := newFakeCluster("")
		f.client.PrependReactor("create", "jobs", func(k8stesting.Action) (bool, runtime.Object, error) {
			return true, nil, apierrors.NewForbidden(schema.GroupResource{Group: "batch", Resource: "jobs"}, "baton-a1-xyz", errors.New("quota exceeded"))
		})
		_, _, err := run(t, context.Background(), f.cluster(), testConfig(), testSpec)
		if err == nil || !strings.Contains(err.Error(), `kube context "test-ctx"`) || !strings.Contains(err.Error(), "quota exceeded") {
			t.Fatalf("err = %v, want the refusal naming the context", err)
		}
		if got := f.deletes(); len(got) == 0 || got[0] != "jobs/baton-a1-xyz Foreground" {
			t.Errorf("deletes = %q, want what was made deleted", got)
		}
	})
	t.Run("an image that cannot be pulled is named", func(t *testing.T) {
		f := newFakeCluster("")
		f.phase = corev1.PodPending
		f.waiting = &corev1.ContainerStateWaiting{Reason: "ErrImagePull", Message: "not found"}
		_, _, err := run(t, context.Background(), f.cluster(), testConfig(), testSpec)
		if err == nil || !strings.Contains(err.Error(), `"registry.example/baton:1" cannot be pulled`) {
			t.Fatalf("err = %v, want the image named", err)
		}
	})
	t.Run("a pod that fails says how", func(t *testing.T) {
		f := newFakeCluster("baton kube child: check the workspace out: git: not found\n")
		f.end = corev1.PodStatus{Phase: corev1.PodFailed, ContainerStatuses: []corev1.ContainerStatus{{Name: container,
			State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 2, Reason: "Error"}}}}}
		_, errs, err := run(t, context.Background(), f.cluster(), testConfig(), testSpec)
		if err == nil || !strings.Contains(err.Error(), "exit status 2") {
			t.Fatalf("err = %v, want the pod's exit status", err)
		}
		if !strings.Contains(errs, "git: not found") {
			t.Errorf("stderr = %q, want the pod's own words", errs)
		}
	})
	t.Run("a bad quantity is refused before anything is made", func(t *testing.T) {
		f := newFakeCluster("")
		cfg := testConfig()
		cfg.Memory = "lots"
		_, _, err := run(t, context.Background(), f.cluster(), cfg, testSpec)
		if err == nil || !strings.Contains(err.Error(), `memory "lots"`) || len(f.client.Actions()) != 0 {
			t.Fatalf("err = %v, actions %d; want the quantity refused first", err, len(f.client.Actions()))
		}
	})
}

func TestStopDeletesTheJobWithForegroundPropagation(t *testing.T) {
	f := newFakeCluster("")
	f.phase = corev1.PodPending // never starts: the person stops it while it waits
	ctx, cancel := context.WithCancel(context.Background())
	watching := make(chan struct{})
	var once sync.Once
	f.client.PrependWatchReactor("pods", func(k8stesting.Action) (bool, watch.Interface, error) {
		once.Do(func() { close(watching) })
		return false, nil, nil
	})
	done := make(chan error, 1)
	go func() {
		_, _, err := run(t, ctx, f.cluster(), testConfig(), testSpec)
		done <- err
	}()
	<-watching
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want the stop", err)
	}
	if got := f.deletes(); len(got) == 0 || got[0] != "jobs/baton-a1-xyz Foreground" {
		t.Errorf("deletes = %q, want the Job deleted with foreground propagation", got)
	}
}

// bigBundle is a bundle of two and a half parts.
func bigBundle() []byte {
	b := make([]byte, kube.PartSize*5/2)
	for i := range b {
		b[i] = byte(i * 7 / 5)
	}
	return b
}

// A bundle larger than a ConfigMap holds goes in several, in order,
// each mounted into the pod, and all of them are deleted with the Job
// however the child ends.
func TestABigBundleGoesInSeveralConfigMaps(t *testing.T) {
	names := []string{"baton-a1-xyz-workspace-0", "baton-a1-xyz-workspace-1", "baton-a1-xyz-workspace-2"}
	// check says whether f was given the bundle's parts, in order, and
	// deleted every one.
	check := func(t *testing.T, f *fakeCluster, bundle []byte) {
		t.Helper()
		var joined []byte
		var made []string
		for _, a := range f.client.Actions() {
			c, ok := a.(k8stesting.CreateAction)
			if !ok || a.GetResource().Resource != "configmaps" {
				continue
			}
			cm := c.GetObject().(*corev1.ConfigMap)
			if len(cm.BinaryData[partKey]) > kube.PartSize {
				t.Errorf("%s holds %d bytes, more than a part", cm.Name, len(cm.BinaryData[partKey]))
			}
			made = append(made, cm.Name)
			joined = append(joined, cm.BinaryData[partKey]...)
		}
		if strings.Join(made, ",") != strings.Join(names, ",") || !bytes.Equal(joined, bundle) {
			t.Errorf("made ConfigMaps %q holding %d bytes, want %q holding the %d of the bundle", made, len(joined), names, len(bundle))
		}
		deleted := strings.Join(f.deletes(), ",")
		for _, n := range names {
			if !strings.Contains(deleted, "configmaps/"+n) {
				t.Errorf("deletes = %s, want %s deleted", deleted, n)
			}
		}
	}
	t.Run("placed, mounted and deleted at the end", func(t *testing.T) {
		f := newFakeCluster("")
		cfg := testConfig()
		cfg.Bundle = bigBundle()
		var pod corev1.PodSpec
		f.client.PrependReactor("create", "jobs", func(a k8stesting.Action) (bool, runtime.Object, error) {
			pod = a.(k8stesting.CreateAction).GetObject().(*batchv1.Job).Spec.Template.Spec
			return false, nil, nil
		})
		if _, errs, err := run(t, context.Background(), f.cluster(), cfg, testSpec); err != nil {
			t.Fatalf("Run: %v (%s)", err, errs)
		}
		check(t, f, cfg.Bundle)
		mounted := map[string]string{}
		for _, m := range pod.Containers[0].VolumeMounts {
			mounted[m.Name] = m.MountPath
		}
		var got []string
		for _, v := range pod.Volumes {
			if v.ConfigMap != nil {
				got = append(got, v.ConfigMap.Name+" at "+mounted[v.Name])
			}
		}
		want := []string{names[0] + " at /baton/workspace/0", names[1] + " at /baton/workspace/1", names[2] + " at /baton/workspace/2"}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("ConfigMap volumes %q, want %q", got, want)
		}
		var parts string
		for _, e := range pod.Containers[0].Env {
			if e.Name == kube.EnvBundleParts {
				parts = e.Value
			}
		}
		if parts != "/baton/workspace/0/part:/baton/workspace/1/part:/baton/workspace/2/part" {
			t.Errorf("%s = %q, want the three parts in order", kube.EnvBundleParts, parts)
		}
	})
	t.Run("deleted when the Job is refused", func(t *testing.T) {
		f := newFakeCluster("")
		f.client.PrependReactor("create", "jobs", func(k8stesting.Action) (bool, runtime.Object, error) {
			return true, nil, apierrors.NewForbidden(schema.GroupResource{Group: "batch", Resource: "jobs"}, "baton-a1-xyz", errors.New("quota exceeded"))
		})
		cfg := testConfig()
		cfg.Bundle = bigBundle()
		if _, _, err := run(t, context.Background(), f.cluster(), cfg, testSpec); err == nil {
			t.Fatal("Run succeeded, want the refusal")
		}
		check(t, f, cfg.Bundle)
	})
	t.Run("deleted when the person stops the child", func(t *testing.T) {
		f := newFakeCluster("")
		f.phase = corev1.PodPending
		ctx, cancel := context.WithCancel(context.Background())
		watching := make(chan struct{})
		var once sync.Once
		f.client.PrependWatchReactor("pods", func(k8stesting.Action) (bool, watch.Interface, error) {
			once.Do(func() { close(watching) })
			return false, nil, nil
		})
		cfg := testConfig()
		cfg.Bundle = bigBundle()
		done := make(chan error, 1)
		go func() {
			_, _, err := run(t, ctx, f.cluster(), cfg, testSpec)
			done <- err
		}()
		<-watching
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want the stop", err)
		}
		check(t, f, cfg.Bundle)
	})
}

// A bundle past the cap is refused before anything is made, naming its
// size and the cap.
func TestABundlePastTheCapIsRefused(t *testing.T) {
	f := newFakeCluster("")
	cfg := testConfig()
	cfg.Bundle = make([]byte, kube.MaxBundle+1)
	_, _, err := run(t, context.Background(), f.cluster(), cfg, testSpec)
	if err == nil || !strings.Contains(err.Error(), "64.0 MiB, more than the kubernetes runner sends (64 MiB)") || len(f.client.Actions()) != 0 {
		t.Fatalf("err = %v, actions %d; want the size and the cap named, nothing made", err, len(f.client.Actions()))
	}
}
