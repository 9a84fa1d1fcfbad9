package cluster

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/seed-e4e525a6/baton/engine/child/kube"
)

// Where the pod finds what baton sends.
const (
	specDir   = "/baton/spec"
	specKey   = "spec.json"
	digestKey = "workspace.json"
	// bundleDir holds a folder per part of the workspace bundle, named
	// by its index, holding the part as partKey.
	bundleDir  = "/baton/workspace"
	partKey    = "part"
	container  = "child"
	jobLabel   = "baton.child/job"
	agentLabel = "baton.child/agent"
	// batonPath is baton in the image.
	batonPath = "baton"
)

// defaultTTL is how long the cluster keeps a finished Job baton could not
// delete.
const defaultTTL = 600

// Config is one child's placing, from baton-kube's flags.
type Config struct {
	// Context names the kubeconfig context, for messages.
	Context   string
	Namespace string
	// Job names the Job and everything made with it; Agent is the
	// child's id.
	Job, Agent string
	Image      string
	// ServiceAccount, RuntimeClass, CPU and Memory are the pod's; empty:
	// the cluster's defaults.
	ServiceAccount, RuntimeClass string
	CPU, Memory                  string
	TTLSeconds                   int32
	// Deadline bounds the Job's run (the child's timeout); zero: none.
	Deadline time.Duration
	// Bundle is the workspace bundle, BundleRef its ref; Workspace the
	// folder it is checked out in.
	Bundle    []byte
	BundleRef string
	Workspace string
	// Endpoint is the model endpoint's URL, the one place (besides the
	// cluster's DNS) the pod's NetworkPolicy lets it reach.
	Endpoint string
}

// Check refuses a Config the cluster would refuse, before anything is
// made.
func (c Config) Check() error {
	for name, q := range map[string]string{"cpu": c.CPU, "memory": c.Memory} {
		if q == "" {
			continue
		}
		if _, err := resource.ParseQuantity(q); err != nil {
			return fmt.Errorf("[runner.kubernetes] %s %q is not a Kubernetes quantity: %w", name, q, err)
		}
	}
	if c.Image == "" || c.Job == "" || c.Namespace == "" || c.Workspace == "" {
		return fmt.Errorf("the Job needs an image, a name, a namespace and a workspace")
	}
	if len(c.Bundle) > kube.MaxBundle {
		return fmt.Errorf("the workspace bundle is %.1f MiB, more than the kubernetes runner sends (%d MiB)", float64(len(c.Bundle))/(1<<20), kube.MaxBundle>>20)
	}
	return nil
}

// labels mark everything made for the child.
func (c Config) labels() map[string]string {
	return map[string]string{"app.kubernetes.io/managed-by": "baton", jobLabel: c.Job, agentLabel: labelValue(c.Agent)}
}

// labelValue is s as a label value: at most 63 of its letters, digits,
// dashes, dots and underscores.
func labelValue(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s) && len(out) < 63; i++ {
		b := s[i]
		if b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '-' || b == '.' || b == '_' {
			out = append(out, b)
		}
	}
	for len(out) > 0 && !isAlnum(out[0]) {
		out = out[1:]
	}
	for len(out) > 0 && !isAlnum(out[len(out)-1]) {
		out = out[:len(out)-1]
	}
	return string(out)
}

func isAlnum(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// Secret holds the spec line, the key with it (the one place the key
// is), and the digest the workspace bundle's parts are checked against.
func (c Config) Secret(spec []byte) *corev1.Secret {
	return &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: c.Job + "-spec", Namespace: c.Namespace, Labels: c.labels()},
		Type:       corev1.SecretTypeOpaque,
		Data:       map[string][]byte{specKey: spec, digestKey: kube.DigestOf(c.Bundle).Marshal()},
	}
}

// ConfigMaps hold the workspace bundle, a part of at most kube.PartSize
// each, in order.
func (c Config) ConfigMaps() []*corev1.ConfigMap {
	parts := kube.SplitBundle(c.Bundle)
	out := make([]*corev1.ConfigMap, len(parts))
	for i, part := range parts {
		out[i] = &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Name: c.partName(i), Namespace: c.Namespace, Labels: c.labels()},
			BinaryData: map[string][]byte{partKey: part},
		}
	}
	return out
}

// partName names the ConfigMap of part i of the workspace bundle.
func (c Config) partName(i int) string {
	return c.Job + "-workspace-" + strconv.Itoa(i)
}

// JobObject is the child's Job: one pod, never retried, kept TTLSeconds after
// it ends, running `baton __kube-child` with its input open for baton.
func (c Config) JobObject() (*batchv1.Job, error) {
	pod, err := c.PodSpec()
	if err != nil {
		return nil, err
	}
	ttl := c.TTLSeconds
	if ttl <= 0 {
		ttl = defaultTTL
	}
	backoff := int32(0)
	job := &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Name: c.Job, Namespace: c.Namespace, Labels: c.labels()},
		Spec: batchv1.JobSpec{
			BackoffLimit:            &backoff,
			TTLSecondsAfterFinished: &ttl,
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: c.labels()},
				Spec:       pod,
			},
		},
	}
	if c.Deadline > 0 {
		// The child's own timeout ends it first; the deadline is the
		// cluster's backstop, with a minute to report and bundle.
		secs := int64((c.Deadline + time.Minute).Seconds())
		job.Spec.ActiveDeadlineSeconds = &secs
	}
	return job, nil
}

// PodSpec is the pod the Job runs.
func (c Config) PodSpec() (corev1.PodSpec, error) {
	resources := corev1.ResourceRequirements{}
	for name, q := range map[corev1.ResourceName]string{corev1.ResourceCPU: c.CPU, corev1.ResourceMemory: c.Memory} {
		if q == "" {
			continue
		}
		qty, err := resource.ParseQuantity(q)
		if err != nil {
			return corev1.PodSpec{}, fmt.Errorf("%s %q: %w", name, q, err)
		}
		if resources.Limits == nil {
			resources.Limits, resources.Requests = corev1.ResourceList{}, corev1.ResourceList{}
		}
		resources.Limits[name], resources.Requests[name] = qty, qty
	}
	no, secretMode := false, int32(0o400)
	// Each part of the bundle is a ConfigMap volume of its own (Podman's
	// kube play takes no projected volume).
	n := len(kube.SplitBundle(c.Bundle))
	partPaths, partMounts, partVolumes := make([]string, n), make([]corev1.VolumeMount, n), make([]corev1.Volume, n)
	for i := range n {
		name, dir := "bundle-"+strconv.Itoa(i), bundleDir+"/"+strconv.Itoa(i)
		partPaths[i] = dir + "/" + partKey
		partMounts[i] = corev1.VolumeMount{Name: name, MountPath: dir, ReadOnly: true}
		partVolumes[i] = corev1.Volume{Name: name, VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
			LocalObjectReference: corev1.LocalObjectReference{Name: c.partName(i)}, Optional: &no}}}
	}
	pod := corev1.PodSpec{
		RestartPolicy:                corev1.RestartPolicyNever,
		AutomountServiceAccountToken: &no,
		EnableServiceLinks:           &no,
		ServiceAccountName:           c.ServiceAccount,
		Containers: []corev1.Container{{
			Name:    container,
			Image:   c.Image,
			Command: []string{batonPath, kube.PodSubcommand, c.Agent},
			Env: []corev1.EnvVar{
				{Name: kube.EnvSpec, Value: specDir + "/" + specKey},
				{Name: kube.EnvBundleParts, Value: kube.BundleParts(partPaths)},
				{Name: kube.EnvBundleDigest, Value: specDir + "/" + digestKey},
				{Name: kube.EnvRef, Value: c.BundleRef},
				{Name: kube.EnvWorkspace, Value: c.Workspace},
				{Name: kube.EnvHidden, Value: specDir},
				{Name: "HOME", Value: "/tmp"},
			},
			WorkingDir: "/tmp",
			Stdin:      true,
			StdinOnce:  true,
			Resources:  resources,
			VolumeMounts: append([]corev1.VolumeMount{
				{Name: "spec", MountPath: specDir, ReadOnly: true},
				{Name: "workspace", MountPath: c.Workspace},
				{Name: "tmp", MountPath: "/tmp"},
			}, partMounts...),
			SecurityContext: &corev1.SecurityContext{
				AllowPrivilegeEscalation: &no,
				Capabilities:             &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
			},
		}},
		Volumes: append([]corev1.Volume{
			{Name: "spec", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: c.Job + "-spec", DefaultMode: &secretMode, Optional: &no}}},
			{Name: "workspace", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
			{Name: "tmp", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
		}, partVolumes...),
	}
	if c.RuntimeClass != "" {
		rc := c.RuntimeClass
		pod.RuntimeClassName = &rc
	}
	return pod, nil
}

// NetworkPolicy lets the child's pod reach the model endpoint and the
// cluster's DNS, and nothing else; lookup resolves the endpoint's host.
func (c Config) NetworkPolicy(lookup func(host string) ([]net.IP, error)) (*networkingv1.NetworkPolicy, error) {
	u, err := url.Parse(c.Endpoint)
	if err != nil || u.Hostname() == "" {
		return nil, fmt.Errorf("the endpoint %q names no host", c.Endpoint)
	}
	port := u.Port()
	if port == "" {
		port = "443"
		if u.Scheme == "http" {
			port = "80"
		}
	}
	n, err := strconv.Atoi(port)
	if err == nil && (n < 1 || n > 65535) {
		err = errors.New("not a TCP port")
	}
	if err != nil {
		return nil, fmt.Errorf("the endpoint's port %q: %w", port, err)
	}
	ips, err := lookup(u.Hostname())
	if err != nil || len(ips) == 0 {
		return nil, fmt.Errorf("resolve the endpoint's host %s: %v", u.Hostname(), err)
	}
	tcp, udp := corev1.ProtocolTCP, corev1.ProtocolUDP
	endpointPort, dns := intstr.FromInt32(int32(n)), intstr.FromInt32(53)
	to := make([]networkingv1.NetworkPolicyPeer, 0, len(ips))
	for _, ip := range ips {
		bits := 32
		if ip.To4() == nil {
			bits = 128
		}
		to = append(to, networkingv1.NetworkPolicyPeer{IPBlock: &networkingv1.IPBlock{CIDR: (&net.IPNet{IP: ip, Mask: net.CIDRMask(bits, bits)}).String()}})
	}
	return &networkingv1.NetworkPolicy{
		ObjectMeta: metav1.ObjectMeta{Name: c.Job + "-egress", Namespace: c.Namespace, Labels: c.labels()},
		Spec: networkingv1.NetworkPolicySpec{
			PodSelector: metav1.LabelSelector{MatchLabels: map[string]string{jobLabel: c.Job}},
			PolicyTypes: []networkingv1.PolicyType{networkingv1.PolicyTypeEgress, networkingv1.PolicyTypeIngress},
			Egress: []networkingv1.NetworkPolicyEgressRule{
				{To: to, Ports: []networkingv1.NetworkPolicyPort{{Protocol: &tcp, Port: &endpointPort}}},
				{Ports: []networkingv1.NetworkPolicyPort{{Protocol: &udp, Port: &dns}, {Protocol: &tcp, Port: &dns}}},
			},
		},
	}, nil
}
