package container

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/moby/moby/api/types/mount"
)

// The Docker Engine API is spoken directly over HTTP, with the API's own
// types where they cost nothing to link (mount, stdcopy): the moby
// client library links an image-reference parser and OpenTelemetry whose
// package initialisation costs every baton start, --version included,
// about 1.5 MiB and 13 ms (issue #33). Only the six calls a child needs
// are made: create, start, attach, wait, kill and remove.

// apiVersion is the Engine API version baton speaks: 1.41 (Docker 20.10,
// Podman 4's compatible service) has everything used here.
const apiVersion = "v1.41"

// Bounds on the engine's replies and on calls that are not streams.
const (
	maxReplyBytes = 1 << 20
	callTimeout   = 60 * time.Second
	dialTimeout   = 10 * time.Second
)

// engine is a connection to a Docker-Engine-compatible API service.
type engine struct {
	// host is the address as the person wrote it, for messages.
	host    string
	network string
	address string
	http    *http.Client
}

// defaultSockets are tried, in order, when neither [runner.container]
// host nor DOCKER_HOST names the engine: Docker's socket, then rootful
// and rootless Podman's.
func defaultSockets() []string {
	socks := []string{"/var/run/docker.sock", "/run/podman/podman.sock"}
	if dir := os.Getenv("XDG_RUNTIME_DIR"); dir != "" {
		socks = append(socks, filepath.Join(dir, "podman", "podman.sock"))
	}
	return socks
}

// newEngine reads the engine's address: host, else DOCKER_HOST, else the
// first default socket that exists. unix:// and tcp:// on loopback are
// spoken; anything else is refused by name: the API is plain HTTP, and
// the child's spec, the key in it, goes through it.
func newEngine(host string) (*engine, error) {
	if host == "" {
		host = os.Getenv("DOCKER_HOST")
	}
	if host == "" {
		host = "unix://" + defaultSockets()[0]
		for _, s := range defaultSockets() {
			if _, err := os.Stat(s); err == nil {
				host = "unix://" + s
				break
			}
		}
	}
	u, err := url.Parse(host)
	if err != nil {
		return nil, fmt.Errorf("container engine address %q: %w", host, err)
	}
	e := &engine{host: host, network: u.Scheme}
	switch u.Scheme {
	case "unix":
		e.address = u.Path
	case "tcp":
		e.address = u.Host
		if ip := net.ParseIP(u.Hostname()); u.Host != "" && u.Hostname() != "localhost" && (ip == nil || !ip.IsLoopback()) {
			return nil, fmt.Errorf("container engine address %q: baton speaks plain HTTP to the engine, and the API key goes through it, so tcp:// only on loopback (use a unix socket, or an SSH tunnel to one)", host)
		}
	default:
		return nil, fmt.Errorf("container engine address %q: baton speaks to engines over unix:// or tcp://", host)
	}
	if e.address == "" {
		return nil, fmt.Errorf("container engine address %q names no socket or host", host)
	}
	transport := &http.Transport{DialContext: e.dial, MaxIdleConns: 4, IdleConnTimeout: 30 * time.Second}
	e.http = &http.Client{Transport: transport}
	return e, nil
}

// dial connects to the engine, whatever address the request names.
func (e *engine) dial(ctx context.Context, _, _ string) (net.Conn, error) {
	d := net.Dialer{Timeout: dialTimeout}
	conn, err := d.DialContext(ctx, e.network, e.address)
	if err != nil {
		return nil, &unreachableError{host: e.host, err: err}
	}
	return conn, nil
}

// close lets the engine's idle connections go.
func (e *engine) close() { e.http.CloseIdleConnections() }

// unreachableError is an engine that cannot be connected to.
type unreachableError struct {
	host string
	err  error
}

func (u *unreachableError) Error() string {
	return fmt.Sprintf("the container engine at %s cannot be reached (is it running?): %v", u.host, u.err)
}

func (u *unreachableError) Unwrap() error { return u.err }

// apiError is the engine's refusal of a call.
type apiError struct {
	status  int
	message string
}

func (a *apiError) Error() string { return fmt.Sprintf("%s (HTTP %d)", a.message, a.status) }

// notFound reports whether err is the engine saying the thing asked for
// (an image, a container) does not exist.
func notFound(err error) bool {
	var a *apiError
	return errors.As(err, &a) && a.status == http.StatusNotFound
}

// call makes one API call, sending body as JSON when not nil and reading
// the reply into out when not nil.
func (e *engine) call(ctx context.Context, method, path string, query url.Values, body, out any) error {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	req, err := e.request(ctx, method, path, query, body)
	if err != nil {
		return err
	}
	resp, err := e.http.Do(req)
	if err != nil {
		var u *unreachableError
		if errors.As(err, &u) {
			return u
		}
		return fmt.Errorf("container engine at %s: %w", e.host, err)
	}
	defer resp.Body.Close()
	return e.reply(resp, out)
}

// request builds an API request.
func (e *engine) request(ctx context.Context, method, path string, query url.Values, body any) (*http.Request, error) {
	var rd io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(data)
	}
	u := url.URL{Scheme: "http", Host: "engine", Path: "/" + apiVersion + path, RawQuery: query.Encode()}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), rd)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, nil
}

// reply reads a bounded reply: an error for a status of 400 or more
// (the engine's own message), else out when not nil.
func (e *engine) reply(resp *http.Response, out any) error {
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxReplyBytes))
	if err != nil {
		return fmt.Errorf("container engine at %s: read its reply: %w", e.host, err)
	}
	if resp.StatusCode >= 400 {
		var msg struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(data, &msg) != nil || msg.Message == "" {
			msg.Message = strings.TrimSpace(string(data))
		}
		return &apiError{status: resp.StatusCode, message: msg.Message}
	}
	if out == nil || len(data) == 0 {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("container engine at %s: its reply: %w", e.host, err)
	}
	return nil
}

// createBody is the part of the API's container configuration baton sets
// (POST /containers/create).
type createBody struct {
	Image        string            `json:"Image"`
	Cmd          []string          `json:"Cmd"`
	User         string            `json:"User"`
	WorkingDir   string            `json:"WorkingDir"`
	Env          []string          `json:"Env"`
	OpenStdin    bool              `json:"OpenStdin"`
	StdinOnce    bool              `json:"StdinOnce"`
	AttachStdin  bool              `json:"AttachStdin"`
	AttachStdout bool              `json:"AttachStdout"`
	AttachStderr bool              `json:"AttachStderr"`
	Labels       map[string]string `json:"Labels"`
	HostConfig   hostConfig        `json:"HostConfig"`
}

// hostConfig is what the container may reach and use.
type hostConfig struct {
	Mounts         []mount.Mount     `json:"Mounts"`
	NetworkMode    string            `json:"NetworkMode,omitempty"`
	CapDrop        []string          `json:"CapDrop"`
	SecurityOpt    []string          `json:"SecurityOpt"`
	ReadonlyRootfs bool              `json:"ReadonlyRootfs"`
	Tmpfs          map[string]string `json:"Tmpfs"`
	NanoCPUs       int64             `json:"NanoCpus,omitempty"`
	Memory         int64             `json:"Memory,omitempty"`
	PidsLimit      int64             `json:"PidsLimit,omitempty"`
	Ulimits        []ulimit          `json:"Ulimits"`
}

// ulimit is one resource limit of the container's processes.
type ulimit struct {
	Name string `json:"Name"`
	Soft int64  `json:"Soft"`
	Hard int64  `json:"Hard"`
}

// create makes a container and returns its id.
func (e *engine) create(ctx context.Context, body createBody) (string, error) {
	var out struct {
		ID string `json:"Id"`
	}
	if err := e.call(ctx, http.MethodPost, "/containers/create", nil, body, &out); err != nil {
		return "", err
	}
	if out.ID == "" {
		return "", fmt.Errorf("container engine at %s: it made a container without an id", e.host)
	}
	return out.ID, nil
}

// start starts a container.
func (e *engine) start(ctx context.Context, id string) error {
	return e.call(ctx, http.MethodPost, "/containers/"+url.PathEscape(id)+"/start", nil, nil, nil)
}

// kill sends SIGKILL to a container's processes.
func (e *engine) kill(ctx context.Context, id string) error {
	return e.call(ctx, http.MethodPost, "/containers/"+url.PathEscape(id)+"/kill", url.Values{"signal": {"KILL"}}, nil, nil)
}

// remove removes a container, running or not.
func (e *engine) remove(ctx context.Context, id string) error {
	return e.call(ctx, http.MethodDelete, "/containers/"+url.PathEscape(id), url.Values{"force": {"1"}}, nil, nil)
}

// wait waits until a container is not running and returns its exit
// status. It is bounded by ctx alone: a child runs as long as its limits
// allow.
func (e *engine) wait(ctx context.Context, id string) (int, error) {
	req, err := e.request(ctx, http.MethodPost, "/containers/"+url.PathEscape(id)+"/wait", url.Values{"condition": {"not-running"}}, nil)
	if err != nil {
		return 0, err
	}
	resp, err := e.http.Do(req)
	if err != nil {
		return 0, fmt.Errorf("container engine at %s: %w", e.host, err)
	}
	defer resp.Body.Close()
	var out struct {
		StatusCode int `json:"StatusCode"`
	}
	if err := e.reply(resp, &out); err != nil {
		return 0, err
	}
	return out.StatusCode, nil
}

// attached is a container's standard streams: conn writes its input,
// and out reads its output, multiplexed as the API's stdcopy frames.
type attached struct {
	conn net.Conn
	out  io.Reader
}

// attach connects to a container's standard streams, taking over the
// connection from HTTP as the API does (101 Switching Protocols, or 200
// from engines that do not switch).
func (e *engine) attach(ctx context.Context, id string) (*attached, error) {
	conn, err := e.dial(ctx, "", "")
	if err != nil {
		return nil, err
	}
	q := url.Values{"stream": {"1"}, "stdin": {"1"}, "stdout": {"1"}, "stderr": {"1"}}
	req, err := e.request(ctx, http.MethodPost, "/containers/"+url.PathEscape(id)+"/attach", q, nil)
	if err != nil {
		conn.Close()
		return nil, err
	}
	req.Header.Set("Connection", "Upgrade")
	req.Header.Set("Upgrade", "tcp")
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	if err := conn.SetDeadline(time.Now().Add(callTimeout)); err != nil {
		conn.Close()
		return nil, err
	}
	if err := req.Write(conn); err != nil {
		conn.Close()
		return nil, fmt.Errorf("container engine at %s: attach: %w", e.host, err)
	}
	rd := bufio.NewReader(conn)
	resp, err := http.ReadResponse(rd, req)
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("container engine at %s: attach: %w", e.host, err)
	}
	if resp.StatusCode != http.StatusSwitchingProtocols && resp.StatusCode != http.StatusOK {
		err := e.reply(resp, nil)
		conn.Close()
		return nil, fmt.Errorf("attach: %w", err)
	}
	if err := conn.SetDeadline(time.Time{}); err != nil {
		conn.Close()
		return nil, err
	}
	return &attached{conn: conn, out: rd}, nil
}

// closeWrite ends the container's input; its output goes on.
func (a *attached) closeWrite() error {
	if cw, ok := a.conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}
