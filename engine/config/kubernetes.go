package config

import (
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/child/kube"
)

// kubernetesFile is [runner.kubernetes].
type kubernetesFile struct {
	// Context is the kubeconfig context (empty: the current one);
	// Namespace the namespace (empty: the context's).
	Context   *text `toml:"context"`
	Namespace *text `toml:"namespace"`
	// Image holds baton and git; the pod runs `baton __kube-child`.
	Image          *text `toml:"image"`
	ServiceAccount *text `toml:"service_account"`
	RuntimeClass   *text `toml:"runtime_class"`
	// CPU and Memory are Kubernetes quantities ("500m", "2Gi").
	CPU    *text `toml:"cpu"`
	Memory *text `toml:"memory"`
	// TTLSeconds is the Job's ttlSecondsAfterFinished.
	TTLSeconds *int `toml:"ttl_seconds"`
	// Approvals is who decides a remote child's calls that would ask:
	// "ask" (the person, the default) or "allow" (pre-approved, reported).
	Approvals *approvalsPolicy `toml:"approvals"`
	// MaxConcurrent is how many children run on the cluster at once (per
	// depth), in place of [limits] max_concurrent.
	MaxConcurrent *count `toml:"max_concurrent"`
}

// applyKubernetes takes [runner.kubernetes].
func (c *Config) applyKubernetes(f *kubernetesFile) {
	if f == nil {
		return
	}
	k := &c.Kubernetes
	for _, set := range []struct {
		to   *string
		from *text
	}{{&k.Context, f.Context}, {&k.Namespace, f.Namespace}, {&k.Image, f.Image}, {&k.ServiceAccount, f.ServiceAccount},
		{&k.RuntimeClass, f.RuntimeClass}, {&k.CPU, f.CPU}, {&k.Memory, f.Memory}} {
		if set.from != nil {
			*set.to = string(*set.from)
		}
	}
	if f.Approvals != nil {
		k.Approvals = string(*f.Approvals)
	}
	if f.TTLSeconds != nil && *f.TTLSeconds > 0 {
		k.TTLSeconds = *f.TTLSeconds
	}
	if f.MaxConcurrent != nil {
		if c.RunnerMaxConcurrent == nil {
			c.RunnerMaxConcurrent = map[string]int{}
		}
		c.RunnerMaxConcurrent[child.RunnerKubernetes] = int(*f.MaxConcurrent)
	}
}

// approvalsPolicy is [runner.kubernetes] approvals.
type approvalsPolicy string

// UnmarshalTOML implements toml.Unmarshaler.
func (a *approvalsPolicy) UnmarshalTOML(v any) error {
	switch s, _ := v.(string); s {
	case kube.ApprovalsAsk, kube.ApprovalsAllow:
		*a = approvalsPolicy(s)
		return nil
	}
	return valueError{`"ask" or "allow"`, v}
}
