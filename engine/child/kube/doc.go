// Package kube places a child on a Kubernetes cluster: runner =
// "kubernetes". Each child is one Job whose pod runs baton's child
// protocol (package process): its spec arrives in a Secret, its workspace
// as a git bundle in ConfigMaps (in parts, checked against a digest in
// the Secret), its events, questions and result leave
// through the pod's log, and answers and controls reach it over the pod's
// attached input. A writer's change comes back as a git bundle in the
// log's final line and is written into the child's worktree, so it is
// reviewed like any worktree child's.
//
// The cluster is reached through client-go, whose packages cost baton's
// every start twelve MiB and as many milliseconds; they live in a
// command of their own, baton-kube (package kube/cluster), which this
// runner starts for each child and talks to over its standard streams.
// baton itself links none of them.
package kube
