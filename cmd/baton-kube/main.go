// Command baton-kube places one of baton's children on a Kubernetes
// cluster for baton's kubernetes runner, which starts it: `baton-kube run
// --job NAME --image IMAGE … -- __child AGENT`. baton sends the child's
// spec and then its answers on the standard input; the pod's log comes
// back on the standard output. It is a command of its own so that baton
// itself links none of client-go.
package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

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
	cfg, err := cluster.ParseArgs(args)
	if err != nil {
		return err
	}
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
