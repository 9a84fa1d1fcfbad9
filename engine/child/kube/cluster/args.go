package cluster

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/pflag"

	"github.com/seed-e4e525a6/baton/engine/child/kube"
)

// Usage is baton-kube's synopsis.
const Usage = "usage: baton-kube run --job NAME --image IMAGE --bundle FILE --bundle-ref REF --workspace DIR --endpoint URL [--context C] [--namespace N] [--service-account A] [--runtime-class R] [--cpu Q] [--memory Q] [--ttl-seconds N] [--deadline D] -- __child AGENT (baton starts it for runner = \"kubernetes\")"

// ParseArgs reads baton-kube's arguments (after the program's name), and
// the workspace bundle they name.
func ParseArgs(args []string) (Config, error) {
	var cfg Config
	if len(args) == 0 || args[0] != "run" {
		return cfg, errors.New(Usage)
	}
	fs := pflag.NewFlagSet("baton-kube run", pflag.ContinueOnError)
	var bundle string
	fs.StringVar(&cfg.Context, "context", "", "kubeconfig context (default: the current one)")
	fs.StringVar(&cfg.Namespace, "namespace", "", "namespace (default: the context's)")
	fs.StringVar(&cfg.Job, "job", "", "the Job's name")
	fs.StringVar(&cfg.Image, "image", "", "the image, holding baton and git")
	fs.StringVar(&cfg.ServiceAccount, "service-account", "", "the pod's service account")
	fs.StringVar(&cfg.RuntimeClass, "runtime-class", "", "the pod's runtime class")
	fs.StringVar(&cfg.CPU, "cpu", "", "CPU request and limit")
	fs.StringVar(&cfg.Memory, "memory", "", "memory request and limit")
	fs.Int32Var(&cfg.TTLSeconds, "ttl-seconds", 0, "ttlSecondsAfterFinished")
	fs.DurationVar(&cfg.Deadline, "deadline", 0, "the child's timeout")
	fs.StringVar(&bundle, "bundle", "", "the workspace bundle")
	fs.StringVar(&cfg.BundleRef, "bundle-ref", "", "the ref in the bundle")
	fs.StringVar(&cfg.Workspace, "workspace", "", "the workspace's folder")
	fs.StringVar(&cfg.Endpoint, "endpoint", "", "the model endpoint's URL")
	if err := fs.Parse(args[1:]); err != nil {
		return cfg, fmt.Errorf("%w\n%s", err, Usage)
	}
	// What follows -- is the child's command line: its subcommand and id.
	if rest := fs.Args(); len(rest) == 2 {
		cfg.Agent = rest[1]
	}
	f, err := os.Open(bundle)
	if err != nil {
		return cfg, fmt.Errorf("read the workspace bundle: %w", err)
	}
	defer f.Close()
	// One byte past the cap, for Check to refuse naming the size.
	if cfg.Bundle, err = io.ReadAll(io.LimitReader(f, kube.MaxBundle+1)); err != nil {
		return cfg, fmt.Errorf("read the workspace bundle: %w", err)
	}
	return cfg, nil
}
