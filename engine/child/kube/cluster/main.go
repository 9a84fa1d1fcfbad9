package cluster

import (
	"context"
	"fmt"
	"io"
	"net"
	"os/signal"
	"syscall"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

// dialTimeout bounds connecting to the cluster: an unreachable cluster
// ends the child quickly.
const dialTimeout = 10 * time.Second

// Main is baton-kube: it parses args (after the program's name), reaches
// the cluster of the kubeconfig's context and places the child, with
// baton's lines on in and the pod's on out. Its exit status is 0 when
// the pod ended well, 1 otherwise, with why on errs.
func Main(args []string, in io.Reader, out, errs io.Writer) int {
	if err := place(args, in, out, errs); err != nil {
		fmt.Fprintf(errs, "baton-kube: %v\n", err)
		return 1
	}
	return 0
}

// place is Main's work.
func place(args []string, in io.Reader, out, errs io.Writer) error {
	cfg, err := ParseArgs(args)
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
	c := Cluster{Client: client, Attach: Attach(client, restConfig)}
	return c.Run(ctx, cfg, in, out, errs)
}
