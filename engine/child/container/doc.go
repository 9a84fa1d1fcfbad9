// Package container places a child in a container: the same baton child
// process as engine/child/process, speaking the same protocol over the
// container's attached standard input and output, started through a
// Docker-Engine-compatible API (Docker, or Podman's API service).
//
// What the container gets, and nothing more: the child's workspace as a
// bind mount (read-only unless the child writes, and a writing child
// only in a worktree of its own, never the person's tree), baton's
// static binary read-only, and a Unix socket baton relays to the model
// endpoint, so that the container has no network unless the child's
// sandbox policy allows it. The API key travels in the spec on standard
// input, to the child's loop alone: never in the container's
// environment or arguments, where its commands could read it. The
// container runs as the person's user and group, with no capabilities,
// a read-only root filesystem, a private /tmp, and the CPU, memory,
// process and open-file limits of Options. It is removed when the child
// ends, however it ends.
//
// A missing image or an engine that cannot be reached ends the child at
// once with an error naming the image or the engine's address; a child
// placed in a container never runs on the host instead.
package container
