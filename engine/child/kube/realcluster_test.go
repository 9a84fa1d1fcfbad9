package kube_test

import (
	"context"
	"os"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// TestRealCluster places a reading child on the cluster of KUBECONFIG's
// current context, in the image BATON_TEST_KUBE_IMAGE (it must hold baton
// and git, and be pullable there) and the namespace
// BATON_TEST_KUBE_NAMESPACE (default "default"). The scripted endpoint
// listens on this machine's loopback, which pods reach only on a cluster
// running here with host networking (kind, k3d, minikube --driver=none);
// elsewhere the child fails to reach it, and the test still checks that
// the Job was placed, reported where, and deleted. Without KUBECONFIG it
// is skipped: no cluster can be reached where baton's CI runs.
func TestRealCluster(t *testing.T) {
	if os.Getenv("KUBECONFIG") == "" {
		t.Skip("no cluster: set KUBECONFIG (and BATON_TEST_KUBE_IMAGE) to run the kubernetes runner against a real cluster")
	}
	image := os.Getenv("BATON_TEST_KUBE_IMAGE")
	if image == "" {
		t.Fatal("KUBECONFIG is set but BATON_TEST_KUBE_IMAGE (an image holding baton and git) is not")
	}
	namespace := os.Getenv("BATON_TEST_KUBE_NAMESPACE")
	if namespace == "" {
		namespace = "default"
	}
	srv := llmtest.NewServer(t, delegating("Explore", func(_ *llmtest.Request, w *llmtest.Writer) { w.Text("ran on the cluster") }))
	s := session(t, srv, image, clusterBridge(t), func(c *engine.Config) { c.Kubernetes.Namespace = namespace })
	evs := turn(t, s, "look")
	f := finished(t, evs)
	var where string
	for _, ev := range evs {
		if p, ok := ev.(event.AgentPlaced); ok {
			where = p.Where
		}
	}
	if !strings.HasPrefix(where, "k8s "+namespace+"/baton-") {
		t.Fatalf("placed at %q, child ended %s: %s", where, f.Status, f.Reason)
	}
	t.Logf("child ended %s %q %s", f.Status, f.Text, f.Reason)
	cfg, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(clientcmd.NewDefaultClientConfigLoadingRules(), nil).ClientConfig()
	if err != nil {
		t.Fatal(err)
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	job := strings.TrimPrefix(where, "k8s "+namespace+"/")
	jobs, err := client.BatchV1().Jobs(namespace).List(context.Background(), metav1.ListOptions{LabelSelector: "baton.child/job=" + job})
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range jobs.Items {
		if j.DeletionTimestamp == nil {
			t.Errorf("the Job %s was left behind", j.Name)
		}
	}
}
