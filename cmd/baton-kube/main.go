// Command baton-kube places one of baton's children on a Kubernetes
// cluster for baton's kubernetes runner, which starts it: `baton-kube run
// --job NAME --image IMAGE … -- __child AGENT`. baton sends the child's
// spec and then its answers on the standard input; the pod's log comes
// back on the standard output. It is a command of its own so that baton
// itself links none of client-go.
package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/pflag"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/seed-e4e525a6/baton/engine/child/kube/cluster"
)

// dialTimeout bounds connecting to the cluster: an unreachable cluster
// ends the child quickly.
const dialTimeout = 10 * time.Second

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "baton-kube: %v\n", err)
		os.Exit(1)
	}
}

// run parses the arguments and places the child.
func run(args []string) error {
	if len(args) == 0 || args[0] != "run" {
		return errors.New("usage: baton-kube run --job NAME --image IMAGE --bundle FILE --bundle-ref REF --workspace DIR --endpoint URL [--context C] [--namespace N] … -- __child AGENT (baton starts it for runner = \"kubernetes\")")
	}
	fs := pflag.NewFlagSet("baton-kube run", pflag.ContinueOnError)
	var cfg cluster.Config
	var bundle string
	var ttl int32
	fs.StringVar(&cfg.Context, "context", "", "kubeconfig context (default: the current one)")
	fs.StringVar(&cfg.Namespace, "namespace", "", "namespace (default: the context's)")
	fs.StringVar(&cfg.Job, "job", "", "the Job's name")
	fs.StringVar(&cfg.Image, "image", "", "the image, holding baton and git")
	fs.StringVar(&cfg.ServiceAccount, "service-account", "", "the pod's service account")
	fs.StringVar(&cfg.RuntimeClass, "runtime-class", "", "the pod's runtime class")
	fs.StringVar(&cfg.CPU, "cpu", "", "CPU request and limit")
	fs.StringVar(&cfg.Memory, "memory", "", "memory request and limit")
	fs.Int32Var(&ttl, "ttl-seconds", 0, "ttlSecondsAfterFinished")
	fs.DurationVar(&cfg.Deadline, "deadline", 0, "the child's timeout")
	fs.StringVar(&bundle, "bundle", "", "the workspace bundle")
	fs.StringVar(&cfg.BundleRef, "bundle-ref", "", "the ref in the bundle")
	fs.StringVar(&cfg.Workspace, "workspace", "", "the workspace's folder")
	fs.StringVar(&cfg.Endpoint, "endpoint", "", "the model endpoint's URL")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	cfg.TTLSeconds = ttl
	if rest := fs.Args(); len(rest) == 2 {
		cfg.Agent = rest[1]
	}
	data, err := os.ReadFile(bundle)
	if err != nil {
		return fmt.Errorf("read the workspace bundle: %w", err)
	}
	cfg.Bundle = data
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	loader := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{CurrentContext: cfg.Context})
	if cfg.Context == "" {
		if raw, err := loader.RawConfig(); err == nil {
			cfg.Context = raw.CurrentContext
		}
	}
	restConfig, err := loader.ClientConfig()
	if err != nil {
		return fmt.Errorf("kube context %q: %w", cfg.Context, err)
	}
	if cfg.Namespace == "" {
		if cfg.Namespace, _, err = loader.Namespace(); err != nil || cfg.Namespace == "" {
			cfg.Namespace = "default"
		}
	}
	restConfig.Dial = (&net.Dialer{Timeout: dialTimeout}).DialContext
	client, err := kubernetes.NewForConfig(restConfig)
	if err != nil {
		return fmt.Errorf("kube context %q: %w", cfg.Context, err)
	}
	// baton stops a child by signalling: the Job is deleted on the way out.
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	c := cluster.Cluster{Client: client, Attach: cluster.Attach(client, restConfig)}
	return c.Run(ctx, cfg, os.Stdin, os.Stdout, os.Stderr)
}
