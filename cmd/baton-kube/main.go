// Command baton-kube places one of baton's children on a Kubernetes
// cluster for baton's kubernetes runner, which starts it: `baton-kube run
// --job NAME --image IMAGE … -- __child AGENT`. baton sends the child's
// spec and then its answers on the standard input; the pod's log comes
// back on the standard output. It is a command of its own so that baton
// itself links none of client-go.
package main

import (
	"os"

	"github.com/seed-e4e525a6/baton/engine/child/kube/cluster"
)

func main() {
	os.Exit(cluster.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
