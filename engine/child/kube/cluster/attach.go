package cluster

import (
	"context"
	"io"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/remotecommand"
	"k8s.io/streaming/pkg/httpstream"
)

// Attach returns the Attacher of a real cluster: the pod's attach
// subresource over WebSocket, or SPDY where the cluster is older.
func Attach(client kubernetes.Interface, config *rest.Config) Attacher {
	return func(ctx context.Context, namespace, pod, container string, r io.Reader) error {
		req := client.CoreV1().RESTClient().Post().Resource("pods").Namespace(namespace).Name(pod).SubResource("attach").
			VersionedParams(&corev1.PodAttachOptions{Container: container, Stdin: true}, scheme.ParameterCodec)
		ws, err := remotecommand.NewWebSocketExecutor(config, "GET", req.URL().String())
		if err != nil {
			return err
		}
		spdy, err := remotecommand.NewSPDYExecutor(config, "POST", req.URL())
		if err != nil {
			return err
		}
		exec, err := remotecommand.NewFallbackExecutor(ws, spdy, func(err error) bool {
			return httpstream.IsUpgradeFailure(err) || httpstream.IsHTTPSProxyError(err)
		})
		if err != nil {
			return err
		}
		return exec.StreamWithContext(ctx, remotecommand.StreamOptions{Stdin: r})
	}
}
