package config

import (
	"strings"
	"testing"
)

// TestRunnerConfig reads [subagents] runner, and refuses a runner baton
// does not have.
func TestRunnerConfig(t *testing.T) {
	cfg, err := newConfigWorld(t, "[subagents]\nrunner = \"process\"\n", "").load(t, Overrides{}, nil)
	if err != nil || cfg.Runner != "process" {
		t.Fatalf("runner %q (err %v), want process", cfg.Runner, err)
	}
	if _, err := newConfigWorld(t, "[subagents]\nrunner = \"elsewhere\"\n", "").load(t, Overrides{}, nil); err == nil || !strings.Contains(err.Error(), `"local", "process", "container" or "kubernetes"`) {
		t.Fatalf("runner = \"elsewhere\" was not refused clearly: %v", err)
	}
}

// TestContainerRunnerConfig: [runner.container] reaches the runner from
// the person's config, and a repository's config cannot set it.
func TestContainerRunnerConfig(t *testing.T) {
	const user = "[subagents]\nrunner = \"container\"\n[runner.container]\nimage = \"img:1\"\ncpus = 1.5\nmemory = \"512m\"\n"
	cfg, err := newConfigWorld(t, user, "").load(t, Overrides{}, nil)
	if err != nil || cfg.Runner != "container" || cfg.Container.Image != "img:1" || cfg.Container.CPUs != 1.5 || cfg.Container.Memory != 512<<20 {
		t.Fatalf("config %q %+v (err %v)", cfg.Runner, cfg.Container, err)
	}
	cfg, err = newConfigWorld(t, "", "[runner.container]\nimage = \"evil:latest\"\nhost = \"tcp://evil:2375\"\n").load(t, Overrides{}, nil)
	if err != nil || cfg.Container.Image != "" || cfg.Container.Host != "" {
		t.Fatalf("a repository set the container runner: %+v (err %v)", cfg.Container, err)
	}
	if _, err := newConfigWorld(t, "[runner.container]\nmemory = \"lots\"\n", "").load(t, Overrides{}, nil); err == nil || !strings.Contains(err.Error(), "512m") {
		t.Fatalf("a bad memory size was not refused clearly: %v", err)
	}
}

// TestRunnerMaxConcurrent: [runner.container] max_concurrent bounds the
// container runner's children apart from [limits] max_concurrent, and is
// held to the same maximum.
func TestRunnerMaxConcurrent(t *testing.T) {
	cfg, err := newConfigWorld(t, "[limits]\nmax_concurrent = 2\n[runner.container]\nmax_concurrent = 12\n", "").load(t, Overrides{}, nil)
	if err != nil || cfg.Limits.MaxConcurrent != 2 || cfg.RunnerMaxConcurrent["container"] != 12 {
		t.Fatalf("limits %d, by runner %v (err %v)", cfg.Limits.MaxConcurrent, cfg.RunnerMaxConcurrent, err)
	}
	if _, err := newConfigWorld(t, "[runner.container]\nmax_concurrent = 100000\n", "").load(t, Overrides{}, nil); err == nil || !strings.Contains(err.Error(), "runner.container.max_concurrent: expected at most") {
		t.Fatalf("a max_concurrent above the maximum was not refused: %v", err)
	}
}

// TestKubernetesRunnerConfig: [runner.kubernetes] reaches the runner from
// the person's config, and a repository's config cannot set it: it says
// which cluster gets the workspace and the key.
func TestKubernetesRunnerConfig(t *testing.T) {
	const user = "[subagents]\nrunner = \"kubernetes\"\n[runner.kubernetes]\ncontext = \"prod\"\nnamespace = \"agents\"\nimage = \"reg/baton:1\"\n" +
		"service_account = \"baton\"\nruntime_class = \"gvisor\"\ncpu = \"500m\"\nmemory = \"2Gi\"\nttl_seconds = 300\nmax_concurrent = 20\napprovals = \"allow\"\n"
	cfg, err := newConfigWorld(t, user, "").load(t, Overrides{}, nil)
	k := cfg.Kubernetes
	if err != nil || cfg.Runner != "kubernetes" || k.Context != "prod" || k.Namespace != "agents" || k.Image != "reg/baton:1" ||
		k.ServiceAccount != "baton" || k.RuntimeClass != "gvisor" || k.CPU != "500m" || k.Memory != "2Gi" || k.TTLSeconds != 300 ||
		cfg.RunnerMaxConcurrent["kubernetes"] != 20 || k.Approvals != "allow" {
		t.Fatalf("config %q %+v %v (err %v)", cfg.Runner, k, cfg.RunnerMaxConcurrent, err)
	}
	cfg, err = newConfigWorld(t, "", "[runner.kubernetes]\ncontext = \"evil\"\nimage = \"evil:latest\"\napprovals = \"allow\"\n").load(t, Overrides{}, nil)
	if err != nil || cfg.Kubernetes.Context != "" || cfg.Kubernetes.Image != "" || cfg.Kubernetes.Approvals != "" {
		t.Fatalf("a repository set the kubernetes runner: %+v (err %v)", cfg.Kubernetes, err)
	}
	if _, err := newConfigWorld(t, "[runner.kubernetes]\napprovals = \"yes\"\n", "").load(t, Overrides{}, nil); err == nil || !strings.Contains(err.Error(), `"ask" or "allow"`) {
		t.Fatalf("approvals = \"yes\" was not refused clearly: %v", err)
	}
}
