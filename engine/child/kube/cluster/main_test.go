package cluster

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	k8stesting "k8s.io/client-go/testing"
)

// bundleFile writes a workspace bundle of data and returns its path.
func bundleFile(t *testing.T, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ws.bundle")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// runArgs are baton-kube's arguments as the kubernetes runner gives them.
func runArgs(bundle string, extra ...string) []string {
	args := []string{"run", "--job", "baton-a1-xyz", "--image", "registry.example/baton:1", "--bundle", bundle,
		"--bundle-ref", "refs/baton/kube/baton-a1-xyz", "--workspace", "/home/p/wt/a1", "--endpoint", "http://10.0.0.9:8080/v1"}
	return append(append(args, extra...), "--", "__child", "a1")
}

func TestParseArgs(t *testing.T) {
	bundle := bundleFile(t, []byte("bundle-bytes"))
	cfg, err := ParseArgs(runArgs(bundle, "--context", "prod", "--namespace", "ns1", "--service-account", "runner",
		"--runtime-class", "gvisor", "--cpu", "500m", "--memory", "1Gi", "--ttl-seconds", "120", "--deadline", "90s"))
	if err != nil {
		t.Fatal(err)
	}
	want := Config{Context: "prod", Namespace: "ns1", Job: "baton-a1-xyz", Agent: "a1", Image: "registry.example/baton:1",
		ServiceAccount: "runner", RuntimeClass: "gvisor", CPU: "500m", Memory: "1Gi", TTLSeconds: 120, Deadline: 90 * time.Second,
		Bundle: []byte("bundle-bytes"), BundleRef: "refs/baton/kube/baton-a1-xyz", Workspace: "/home/p/wt/a1", Endpoint: "http://10.0.0.9:8080/v1"}
	if got, _ := ParseArgs(runArgs(bundle, "--context", "prod", "--namespace", "ns1", "--service-account", "runner",
		"--runtime-class", "gvisor", "--cpu", "500m", "--memory", "1Gi", "--ttl-seconds", "120", "--deadline", "90s")); !equalConfig(got, want) || !equalConfig(cfg, want) {
		t.Fatalf("ParseArgs =\n%+v\nwant\n%+v", cfg, want)
	}
	for name, args := range map[string][]string{
		"no subcommand":  {},
		"another":        {"serve"},
		"a flag unknown": runArgs(bundle, "--privileged"),
		"a bad duration": runArgs(bundle, "--deadline", "soon"),
	} {
		if _, err := ParseArgs(args); err == nil || !strings.Contains(err.Error(), Usage) {
			t.Errorf("%s: %v, want the usage", name, err)
		}
	}
	if _, err := ParseArgs(runArgs(filepath.Join(t.TempDir(), "none"))); err == nil || !strings.Contains(err.Error(), "read the workspace bundle") {
		t.Errorf("a missing bundle: %v", err)
	}
}

// equalConfig compares two configs, bundles by content.
func equalConfig(a, b Config) bool {
	ab, bb := a.Bundle, b.Bundle
	a.Bundle, b.Bundle = nil, nil
	return a.Context == b.Context && a.Namespace == b.Namespace && a.Job == b.Job && a.Agent == b.Agent && a.Image == b.Image &&
		a.ServiceAccount == b.ServiceAccount && a.RuntimeClass == b.RuntimeClass && a.CPU == b.CPU && a.Memory == b.Memory &&
		a.TTLSeconds == b.TTLSeconds && a.Deadline == b.Deadline && a.BundleRef == b.BundleRef && a.Workspace == b.Workspace &&
		a.Endpoint == b.Endpoint && string(ab) == string(bb)
}

// apiServer is an API server that refuses every call as Forbidden and
// remembers them.
type apiServer struct {
	*httptest.Server
	mu    sync.Mutex
	calls []string
}

func newAPIServer(t *testing.T) *apiServer {
	t.Helper()
	a := &apiServer{}
	a.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		a.calls = append(a.calls, r.Method+" "+r.URL.Path)
		a.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","message":"secrets is forbidden: User \"dev\" cannot create resource \"secrets\"","reason":"Forbidden","code":403}`))
	}))
	t.Cleanup(func() {
		a.CloseClientConnections()
		a.Close()
	})
	return a
}

func (a *apiServer) Calls() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.calls)
}

// kubeconfig writes a kubeconfig whose current context "dev" reaches
// server in namespace "team-a", and points KUBECONFIG at it.
func kubeconfig(t *testing.T, server string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config")
	text := `apiVersion: v1
kind: Config
current-context: dev
clusters:
- name: c
  cluster:
    server: ` + server + `
contexts:
- name: dev
  context:
    cluster: c
    user: u
    namespace: team-a
users:
- name: u
  user:
    token: not-a-real-token
`
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KUBECONFIG", path)
}

// baton-kube reaches the cluster of the kubeconfig's current context, in
// its namespace; a refusal names the context and what was refused, exits
// 1, and what was begun is deleted.
func TestMainNamesTheContextAClusterRefusesIn(t *testing.T) {
	api := newAPIServer(t)
	kubeconfig(t, api.URL)
	var out, errs strings.Builder
	code := Main(runArgs(bundleFile(t, []byte("b"))), strings.NewReader(testSpec), &out, &errs)
	if code != 1 || !strings.Contains(errs.String(), `baton-kube: kube context "dev"`) || !strings.Contains(errs.String(), "create the spec's Secret") ||
		!strings.Contains(errs.String(), "forbidden") {
		t.Fatalf("exit %d, stderr %q", code, errs.String())
	}
	calls := api.Calls()
	if len(calls) == 0 || calls[0] != "POST /api/v1/namespaces/team-a/secrets" {
		t.Fatalf("calls = %q, want the Secret first, in the context's namespace", calls)
	}
	if !slices.Contains(calls, "DELETE /apis/batch/v1/namespaces/team-a/jobs/baton-a1-xyz") {
		t.Fatalf("calls = %q, want what was begun deleted", calls)
	}
	if out.Len() != 0 {
		t.Fatalf("out = %q, want nothing for baton before the pod runs", out.String())
	}

	// A namespace given wins over the context's; a context that is not
	// there is named.
	errs.Reset()
	_ = Main(runArgs(bundleFile(t, []byte("b")), "--namespace", "ns2"), strings.NewReader(testSpec), &out, &errs)
	if calls := api.Calls(); !slices.Contains(calls, "POST /api/v1/namespaces/ns2/secrets") {
		t.Fatalf("calls = %q, want the namespace given", calls)
	}
	errs.Reset()
	if code := Main(runArgs(bundleFile(t, []byte("b")), "--context", "prod"), strings.NewReader(testSpec), &out, &errs); code != 1 ||
		!strings.Contains(errs.String(), `kube context "prod"`) {
		t.Fatalf("an unknown context: exit %d, %q", code, errs.String())
	}
	errs.Reset()
	if code := Main(nil, strings.NewReader(""), &out, &errs); code != 1 || !strings.Contains(errs.String(), Usage) {
		t.Fatalf("no arguments: exit %d, %q", code, errs.String())
	}
}

// The attacher attaches to the pod's container's input through the
// attach subresource, and reports the cluster's refusal.
func TestAttachUsesThePodsAttachSubresource(t *testing.T) {
	api := newAPIServer(t)
	config := &rest.Config{Host: api.URL, BearerToken: "not-a-real-token"}
	client, err := kubernetes.NewForConfig(config)
	if err != nil {
		t.Fatal(err)
	}
	err = Attach(client, config)(context.Background(), "team-a", "baton-a1-xyz-pod1", container, strings.NewReader("line\n"))
	if err == nil {
		t.Fatal("an attach the cluster refused succeeded")
	}
	calls := api.Calls()
	if len(calls) == 0 || !strings.HasSuffix(calls[0], " /api/v1/namespaces/team-a/pods/baton-a1-xyz-pod1/attach") {
		t.Fatalf("calls = %q, want the pod's attach subresource", calls)
	}
	// An unreachable cluster is an error too, not a hang.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gone := "http://" + ln.Addr().String()
	_ = ln.Close()
	config = &rest.Config{Host: gone}
	client, _ = kubernetes.NewForConfig(config)
	if err := Attach(client, config)(context.Background(), "ns", "p", container, strings.NewReader("")); err == nil {
		t.Fatal("an attach to no cluster succeeded")
	}
}

// The NetworkPolicy is refused, not made wide open, when the endpoint
// cannot be pinned down; an IPv6 endpoint is one address.
func TestNetworkPolicyNeedsAnAddress(t *testing.T) {
	resolve := func(ips ...string) func(string) ([]net.IP, error) {
		return func(string) ([]net.IP, error) {
			var out []net.IP
			for _, ip := range ips {
				out = append(out, net.ParseIP(ip))
			}
			return out, nil
		}
	}
	for endpoint, want := range map[string]string{
		"":                           "names no host",
		"http://host:port/v1":        "names no host",
		"http://host:99999999999/v1": "not a TCP port",
		"http://host:0/v1":           "not a TCP port",
	} {
		cfg := testConfig()
		cfg.Endpoint = endpoint
		if _, err := cfg.NetworkPolicy(resolve("10.0.0.1")); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", endpoint, err, want)
		}
	}
	cfg := testConfig()
	cfg.Endpoint = "https://api.example.com/v1"
	if _, err := cfg.NetworkPolicy(func(string) ([]net.IP, error) { return nil, errors.New("no such host") }); err == nil || !strings.Contains(err.Error(), "resolve the endpoint's host api.example.com") {
		t.Errorf("an unresolvable host: %v", err)
	}
	if _, err := cfg.NetworkPolicy(resolve()); err == nil {
		t.Error("a host with no address was let through")
	}
	np, err := cfg.NetworkPolicy(resolve("2001:db8::7", "192.0.2.7"))
	if err != nil {
		t.Fatal(err)
	}
	rule := np.Spec.Egress[0]
	if rule.To[0].IPBlock.CIDR != "2001:db8::7/128" || rule.To[1].IPBlock.CIDR != "192.0.2.7/32" || rule.Ports[0].Port.IntValue() != 443 {
		t.Fatalf("egress = %+v", rule)
	}
	cfg.Endpoint = "http://api.example.com/v1"
	if np, _ := cfg.NetworkPolicy(resolve("192.0.2.7")); np.Spec.Egress[0].Ports[0].Port.IntValue() != 80 {
		t.Fatalf("an http endpoint's port = %v", np.Spec.Egress[0].Ports[0].Port)
	}
}

// The Job is kept a default time after it ends, and its deadline leaves
// the child a minute past its own timeout to report.
func TestJobObjectDefaultsAndDeadline(t *testing.T) {
	cfg := testConfig()
	cfg.TTLSeconds, cfg.Deadline = 0, 10*time.Minute
	job, err := cfg.JobObject()
	if err != nil {
		t.Fatal(err)
	}
	if *job.Spec.TTLSecondsAfterFinished != defaultTTL || *job.Spec.ActiveDeadlineSeconds != 660 || *job.Spec.BackoffLimit != 0 {
		t.Fatalf("ttl %d deadline %d backoff %d", *job.Spec.TTLSecondsAfterFinished, *job.Spec.ActiveDeadlineSeconds, *job.Spec.BackoffLimit)
	}
	cfg.CPU = "a lot"
	if _, err := cfg.JobObject(); err == nil || !strings.Contains(err.Error(), `cpu "a lot"`) {
		t.Fatalf("a bad CPU quantity: %v", err)
	}
}

// Each way the cluster can refuse or stall a step is named for the
// person, and a pod that cannot start by itself is not waited on.
func TestRunNamesEachRefusal(t *testing.T) {
	forbid := func(verb, resource string) func(*fakeCluster) {
		return func(f *fakeCluster) {
			f.client.PrependReactor(verb, resource, func(k8stesting.Action) (bool, runtime.Object, error) {
				return true, nil, apierrors.NewForbidden(schema.GroupResource{Resource: resource}, "x", errors.New("RBAC says no"))
			})
		}
	}
	for _, c := range []struct {
		name  string
		setup func(*fakeCluster)
		cfg   func(*Config)
		in    string
		want  string
	}{
		{name: "no spec from baton", in: "", want: "read the spec from baton: EOF"},
		{name: "a ConfigMap refused", setup: forbid("create", "configmaps"), want: "create the workspace's ConfigMap baton-a1-xyz-workspace-0 (part 0)"},
		{name: "the pod's watch refused", setup: func(f *fakeCluster) {
			f.client.PrependWatchReactor("pods", func(k8stesting.Action) (bool, watch.Interface, error) {
				return true, nil, errors.New("watch not allowed")
			})
		}, want: "watch the Job's pod: watch not allowed"},
		{name: "the pod's list refused", setup: forbid("list", "pods"), want: "list the Job's pod"},
		{name: "a container that cannot be made", setup: func(f *fakeCluster) {
			f.phase = corev1.PodPending
			f.waiting = &corev1.ContainerStateWaiting{Reason: "CreateContainerConfigError", Message: `secret "baton-a1-xyz-spec" not found`}
		}, want: `CreateContainerConfigError: secret "baton-a1-xyz-spec" not found`},
		{name: "a pod that never starts", setup: func(f *fakeCluster) { f.phase = corev1.PodPending },
			cfg: func(*Config) {}, want: "it did not start within"},
		{name: "the log refused", setup: func(f *fakeCluster) {
			f.client.PrependReactor("get", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
				if a.GetSubresource() != "log" {
					return false, nil, nil
				}
				return true, nil, apierrors.NewForbidden(schema.GroupResource{Resource: "pods/log"}, "x", errors.New("no logs for you"))
			})
		}, want: "follow the pod's log"},
		{name: "a pod evicted", setup: func(f *fakeCluster) {
			f.end = corev1.PodStatus{Phase: corev1.PodFailed, Reason: "Evicted", Message: "the node was low on memory"}
		}, want: "the child's pod ns1/baton-a1-xyz-pod1 failed: Evicted the node was low on memory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFakeCluster("")
			if c.setup != nil {
				c.setup(f)
			}
			cl := f.cluster()
			if c.cfg != nil {
				cl.StartTimeout = time.Nanosecond
			}
			in := testSpec
			if c.name == "no spec from baton" {
				in = c.in
			}
			_, _, err := run(t, context.Background(), cl, testConfig(), in)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
		})
	}
}

// A NetworkPolicy the cluster refuses leaves the child running with a
// notice on its pane that its network is not restricted.
func TestARefusedNetworkPolicyIsToldNotHidden(t *testing.T) {
	f := newFakeCluster("")
	f.client.Resources = []*metav1.APIResourceList{{GroupVersion: "networking.k8s.io/v1", APIResources: []metav1.APIResource{{Name: "networkpolicies"}}}}
	f.client.PrependReactor("create", "networkpolicies", func(k8stesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(schema.GroupResource{Resource: "networkpolicies"}, "x", errors.New("not an admin"))
	})
	out, _, err := run(t, context.Background(), f.cluster(), testConfig(), testSpec)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "the child's network is not restricted: its NetworkPolicy could not be made") || !strings.Contains(out, "not an admin") {
		t.Fatalf("out = %q", out)
	}
}
