package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/config"
	"github.com/seed-e4e525a6/baton/engine/trust"
	"github.com/seed-e4e525a6/baton/ui"
	"github.com/seed-e4e525a6/baton/ui/trustcard"
)

// Exit codes are a contract with scripts and CI.
const (
	exitOK          = 0
	exitFailed      = 1 // the run failed: provider error, limit hit
	exitUsage       = 2 // bad flags, config or environment
	exitInterrupted = 130
)

// maxPromptBytes bounds a prompt read from stdin; a prompt is text a
// person or script wrote, not a data stream.
const maxPromptBytes = 1 << 20

// run is the whole program behind main: it owns nothing global except the
// log redirection it undoes, so tests call it directly with their own
// working folder (workdir, the workspace; empty when the process's is gone),
// arguments, environment and streams, side by side. term is the terminal
// the TUI takes over (nil: nothing to give back on a hard exit).
func run(ctx context.Context, workdir string, args, environ []string, stdin io.Reader, stdout, stderr io.Writer, term *ui.Terminal) int {
	return runCommandLine(ctx, workdir, parseCommandLine(args), environ, stdin, stdout, stderr, term)
}

// runCommandLine is run with the command line already read.
func runCommandLine(ctx context.Context, workdir string, line commandLine, environ []string, stdin io.Reader, stdout, stderr io.Writer, term *ui.Terminal) int {
	// The protocol's messages are JSON, whose strings carry no raw escape.
	protocol := stdout
	stdout, stderr = cleanWriter{stdout}, cleanWriter{stderr}
	inv, code := prepare(workdir, line, environ, stdin, stdout, stderr)
	if inv == nil {
		return code
	}
	if inv.flags.acp {
		return runACP(ctx, inv, stdin, protocol, stderr)
	}
	if inv.flags.sessions {
		return listSessions(inv, stdout, stderr)
	}
	if inv.flags.listWorktrees {
		return listWorktrees(ctx, inv, stdout, stderr)
	}
	if code, ok := settleTrust(ctx, inv, askCard, stderr); !ok {
		return code
	}
	restoreLogs, err := redirectLogs(inv.cfg.DebugLog, !inv.headless)
	if err != nil {
		fmt.Fprintf(stderr, "baton: BATON_DEBUG: %v\n", err)
		return exitUsage
	}
	defer restoreLogs()
	if inv.endpoint.Demo {
		stop, err := startDemo(ctx, inv)
		if err != nil {
			fmt.Fprintf(stderr, "baton: %v\n", err)
			return exitFailed
		}
		defer stop()
	}
	now := time.Now()
	dir, store, notices, err := openTranscript(inv, now)
	if err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return exitUsage
	}
	if dir != nil {
		// A session in which no prompt was sent leaves nothing behind.
		defer func() { _, _ = dir.CloseDiscardingEmpty() }()
	}
	defer pruneInBackground(ctx, store, inv, now)()
	inv.endpoint.Notices = slices.Concat(inv.cfg.Notices, inv.endpoint.Notices, notices)
	setup := newSessionSetup(inv.cfg, inv.endpoint, inv.types, inv.workspace, inv.env, inv.headless)
	setup.notices = append(inv.trustNotices(), setup.notices...)
	setup.engine.Transcript, setup.engine.TrashChildTranscripts = dir, inv.cfg.Cleanup == "delete"
	setup.engine.Version = version()
	if processProcs != nil {
		setup.engine.Running = processProcs.running
	}
	servers := newMCPRun(inv)
	defer servers.close()
	setup.engine.MCP, setup.mcp = servers.source(), servers
	setup.notices = append(setup.notices, inv.mcp.Notices...)
	if inv.headless {
		setup.engine.Worktrees.Finish = inv.flags.worktrees
		setup.engine.LazyModelList = true // no /model picker to fill
	}
	slog.Debug("baton starting", "version", version(), "model", inv.cfg.Model, "base_url", config.RedactURL(inv.endpoint.BaseURL),
		"mode", setup.engine.Mode, "workspace", inv.workspace, "headless", inv.headless)
	if !inv.headless {
		return runTUI(ctx, setup, tuiOptions{theme: inv.cfg.Theme, demo: inv.endpoint.Demo, term: term, mouse: inv.cfg.Mouse,
			history: promptHistory(store, inv.workspace), self: thisProgram(inv.env), trust: trustFromTUI(inv, servers), store: store}, stdout, stderr)
	}
	for _, n := range setup.notices {
		fmt.Fprintf(stderr, "baton: note: %s\n", n)
	}
	stderr = &lockedWriter{w: stderr}
	servers.startHeadless(ctx, stderr)
	return runHeadless(ctx, setup.engine, inv.headlessRun(setup, stdin), stdout, stderr)
}

// askCard shows the trust card full-screen.
func askCard(ctx context.Context, req trust.Request, theme string) (trustcard.Choice, error) {
	return trustcard.Ask(ctx, req, theme)
}

// invocation is a command line resolved into what to run.
type invocation struct {
	flags     flagValues
	env       map[string]string
	workspace string
	cfg       config.Config
	endpoint  config.Endpoint
	headless  bool
	prompt    string
	// types are the agent types, loaded as the folder's trust allows.
	types *agenttypes.Registry
	trust trust.Folder
	mcp   config.MCPSetup
}

// prepare resolves the command line's prompt, config and endpoint for a
// run in the folder workdir. A nil invocation means the program is done
// (help, version, or an error already printed) and exits with the
// returned code.
func prepare(workdir string, line commandLine, environ []string, stdin io.Reader, stdout, stderr io.Writer) (*invocation, int) {
	fail := func(code int, err error) (*invocation, int) {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return nil, code
	}
	flags, err := line.flags, line.err
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "baton: %v\nRun 'baton --help' for usage.\n", err)
		return nil, exitUsage
	case flags.help:
		fmt.Fprint(stdout, usage())
		return nil, exitOK
	case flags.version:
		fmt.Fprintf(stdout, "baton %s\n", version())
		return nil, exitOK
	case flags.trustCmd != "":
		return nil, runTrustCommand(workdir, flags, envMap(environ), stdout, stderr)
	}
	inv := &invocation{flags: flags, env: envMap(environ), headless: flags.headless()}
	if flags.prompt != nil {
		if inv.prompt, err = readPrompt(*flags.prompt, stdin); err != nil {
			return fail(exitUsage, err)
		}
	}
	if inv.workspace = workdir; workdir == "" {
		return fail(exitFailed, errors.New("workspace: the working folder is gone"))
	}
	inv.trust = trust.Lookup(inv.workspace, inv.env, flags.trust)
	if err := inv.load(); err != nil {
		return fail(exitUsage, err)
	}
	return inv, exitOK
}

// readPrompt returns the -p argument, or stdin's text for "-".
func readPrompt(arg string, stdin io.Reader) (string, error) {
	if arg != "-" {
		return arg, nil
	}
	data, err := io.ReadAll(io.LimitReader(stdin, maxPromptBytes+1))
	if err != nil {
		return "", fmt.Errorf("read prompt from stdin: %w", err)
	}
	if len(data) > maxPromptBytes {
		return "", fmt.Errorf("read prompt from stdin: longer than %d bytes", maxPromptBytes)
	}
	prompt := strings.TrimSpace(string(data))
	if prompt == "" {
		return "", errors.New("-p -: stdin held no prompt")
	}
	return prompt, nil
}

// envMap turns os.Environ-style pairs into a map; a later pair wins, as
// in the process environment.
func envMap(environ []string) map[string]string {
	env := make(map[string]string, len(environ))
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	return env
}

// version is the module version stamped by the go command ("dev" for a
// build from a working tree). Reading the build information parses it
// anew each time, and a run asks for the version several times.
var version = sync.OnceValue(func() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "dev"
})
