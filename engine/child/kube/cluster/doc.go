// Package cluster is the client-go half of the kubernetes runner, linked
// only into the baton-kube command: it places one child as a Job (its
// spec in a Secret, its workspace bundle in ConfigMaps, its egress
// narrowed by a NetworkPolicy where the cluster has them), follows the
// pod's log to baton and baton's input to the pod's attached stdin, and
// deletes what it made when the child ends or is stopped.
package cluster
