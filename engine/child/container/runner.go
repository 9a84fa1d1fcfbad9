package container

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/moby/moby/api/pkg/stdcopy"
	"github.com/moby/moby/api/types/mount"

	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/child/process"
	"github.com/seed-e4e525a6/baton/engine/llm"
)

// Where the binary and the relay's socket are in the container.
const (
	binaryPath = "/usr/local/bin/baton"
	relayPath  = "/run/baton-endpoint"
)

// The limits every container gets besides those of Options.
const (
	openFiles = 4096
	processes = 4096
)

// removeTimeout bounds removing a container once its child has ended.
const removeTimeout = 30 * time.Second

// Options configure the container runner ([runner.container]).
type Options struct {
	// Host is the engine's address (unix:///run/podman/podman.sock);
	// empty: DOCKER_HOST, or the engine's default socket.
	Host string
	// Image is the image children run in.
	Image string
	// CPUs and Memory (bytes) limit each container; zero: no limit.
	CPUs   float64
	Memory int64
	// Binary is baton's statically linked binary on this machine,
	// mounted into the container; empty: this program.
	Binary string
	// Endpoint is where children send their model requests.
	Endpoint llm.Config
}

// New returns a runner that places each child in a container of
// opts.Image. It does not reach the engine until a child starts.
func New(opts Options) (child.Runner, error) {
	if opts.Image == "" {
		return nil, errors.New("the container runner needs an image ([runner.container] image)")
	}
	if _, err := newEngine(opts.Host); err != nil {
		return nil, err
	}
	l := &launcher{opts: opts}
	return process.New(process.Options{Launcher: l, Endpoint: opts.Endpoint, Where: opts.Where()}), nil
}

// Where says where a child of opts runs, as panes show it.
func (o Options) Where() string { return "container " + o.Image }

// launcher starts children's processes in containers.
type launcher struct {
	opts Options
}

// Launch implements process.Launcher: it creates the container, attaches
// to its standard streams and starts it.
func (l *launcher) Launch(ctx context.Context, job child.Job, args []string, stderr io.Writer) (process.Proc, error) {
	spec := job.Spec
	if spec.Toolbox.CanWrite() && spec.Worktree == "" {
		return nil, errors.New("a child that writes runs in a container only in a worktree of its own (isolation = \"worktree\"), never in the person's tree")
	}
	binary, err := staticBinary(l.opts.Binary)
	if err != nil {
		return nil, err
	}
	// Each child has its own connection to the engine, closed with it.
	api, err := newEngine(l.opts.Host)
	if err != nil {
		return nil, err
	}
	r, err := newRelay(l.opts.Endpoint.BaseURL)
	if err != nil {
		api.close()
		return nil, err
	}
	id, err := api.create(ctx, createBody{
		Image: l.opts.Image, Cmd: append([]string{binaryPath}, args...),
		User:       strconv.Itoa(os.Getuid()) + ":" + strconv.Itoa(os.Getgid()),
		WorkingDir: spec.Workspace, Env: []string{"HOME=/tmp", "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
		OpenStdin: true, StdinOnce: true, AttachStdin: true, AttachStdout: true, AttachStderr: true,
		// Which baton started it, for the person (podman ps) and for
		// tests that must not touch another baton's containers.
		Labels:     map[string]string{"baton.child": string(spec.Meta.Agent), "baton.pid": strconv.Itoa(os.Getpid())},
		HostConfig: l.hostConfig(spec, binary, r.dir),
	})
	if err != nil {
		api.close()
		return nil, errors.Join(l.explain(api, err), r.close())
	}
	p := &proc{api: api, id: id, relay: r, stdout: make(chan struct{})}
	// Started before it is attached to (Podman attaches only to a
	// running container): the child says nothing before its spec comes
	// on the input it keeps open for the attachment (StdinOnce).
	if err := api.start(ctx, id); err != nil {
		return nil, errors.Join(l.explain(api, err), p.release())
	}
	p.attached, err = api.attach(ctx, id)
	if err != nil {
		return nil, errors.Join(l.explain(api, err), p.release())
	}
	out, w := io.Pipe()
	p.out = out
	// Ends when the container's output ends: it has exited, or the
	// attachment was closed (release).
	go func() {
		defer close(p.stdout)
		_, err := stdcopy.StdCopy(w, stderr, p.attached.out)
		w.CloseWithError(err)
	}()
	return p, nil
}

// hostConfig is what the container may reach and use.
func (l *launcher) hostConfig(spec child.Spec, binary, relayDir string) hostConfig {
	network := "none"
	if spec.Toolbox.Sandbox.Network || (spec.Toolbox.WebFetch != nil && slices.Contains(spec.Toolbox.Names, "web_fetch")) {
		network = ""
	}
	return hostConfig{
		Mounts: []mount.Mount{
			{Type: mount.TypeBind, Source: spec.Workspace, Target: spec.Workspace, ReadOnly: spec.Worktree == ""},
			{Type: mount.TypeBind, Source: binary, Target: binaryPath, ReadOnly: true},
			{Type: mount.TypeBind, Source: relayDir, Target: relayPath},
		},
		NetworkMode:    network,
		CapDrop:        []string{"ALL"},
		SecurityOpt:    []string{"no-new-privileges"},
		ReadonlyRootfs: true,
		Tmpfs:          map[string]string{"/tmp": "rw,nosuid,nodev,size=512m"},
		NanoCPUs:       int64(l.opts.CPUs * 1e9), Memory: l.opts.Memory, PidsLimit: processes,
		Ulimits: []ulimit{{Name: "nofile", Soft: openFiles, Hard: openFiles}, {Name: "nproc", Soft: processes, Hard: processes}},
	}
}

// explain names what could not be reached or found.
func (l *launcher) explain(api *engine, err error) error {
	var u *unreachableError
	switch {
	case errors.As(err, &u):
		return err
	case notFound(err):
		return fmt.Errorf("the image %q is not in the container engine at %s: %w", l.opts.Image, api.host, err)
	}
	return fmt.Errorf("container engine at %s: %w", api.host, err)
}

// proc is a child's process in a container.
type proc struct {
	api      *engine
	id       string
	relay    *relay
	attached *attached
	out      io.Reader
	// stdout is closed when the container's output has ended.
	stdout chan struct{}

	releaseOnce sync.Once
	releaseErr  error
}

// Stdin implements process.Proc: closing it ends the container's input.
func (p *proc) Stdin() io.WriteCloser { return stdin{p} }

// Stdout implements process.Proc.
func (p *proc) Stdout() io.Reader { return p.out }

// Kill implements process.Proc.
func (p *proc) Kill() {
	ctx, cancel := context.WithTimeout(context.Background(), removeTimeout)
	defer cancel()
	_ = p.api.kill(ctx, p.id)
}

// Wait implements process.Proc: it waits for the container to exit and
// removes it.
func (p *proc) Wait() error {
	ctx, cancel := context.WithTimeout(context.Background(), removeTimeout)
	defer cancel()
	<-p.stdout
	status, err := p.api.wait(ctx, p.id)
	switch {
	case notFound(err):
		err = errors.New("its container is gone")
	case err != nil:
		err = fmt.Errorf("wait for its container: %w", err)
	case status != 0:
		err = fmt.Errorf("its container exited with status %d", status)
	}
	return errors.Join(err, p.release())
}

// release closes the attachment, removes the container and stops the
// relay, once.
func (p *proc) release() error {
	p.releaseOnce.Do(func() {
		if p.attached != nil {
			p.attached.conn.Close()
		}
		ctx, cancel := context.WithTimeout(context.Background(), removeTimeout)
		defer cancel()
		err := p.api.remove(ctx, p.id)
		if notFound(err) {
			err = nil
		}
		if err != nil {
			err = fmt.Errorf("remove its container %s: %w", p.id, err)
		}
		p.api.close()
		p.releaseErr = errors.Join(err, p.relay.close())
	})
	return p.releaseErr
}

// EndpointSocket implements process.Relayed.
func (p *proc) EndpointSocket() string { return filepath.Join(relayPath, socketName) }

// stdin writes to the container's attached input.
type stdin struct{ p *proc }

// Write implements io.Writer.
func (s stdin) Write(b []byte) (int, error) { return s.p.attached.conn.Write(b) }

// Close implements io.Closer: the container's input ends, its output
// goes on.
func (s stdin) Close() error { return s.p.attached.closeWrite() }
