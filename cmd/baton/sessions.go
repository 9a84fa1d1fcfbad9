package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/seed-e4e525a6/baton/engine/config"
	"github.com/seed-e4e525a6/baton/engine/transcript"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// openStore returns the transcript store, redacting every secret found in
// the environment.
func openStore(inv *invocation) (*transcript.Store, error) {
	root, err := transcript.DefaultRoot(func(k string) string { return inv.env[k] })
	if err != nil {
		return nil, fmt.Errorf("transcripts: %w", err)
	}
	environ := make([]string, 0, len(inv.env))
	for k, v := range inv.env {
		environ = append(environ, k+"="+v)
	}
	// The key may come from the user config rather than the environment,
	// and a base URL may carry credentials: none of them is ever written.
	secrets := append(transcript.SecretsFromEnv(environ), inv.cfg.APIKey)
	secrets = append(secrets, config.URLSecrets(inv.cfg.BaseURL)...)
	return transcript.NewStore(root, transcript.NewRedactor(secrets...)), nil
}

// openTranscript picks the session's folder: the last one of this folder
// (--continue), a given one (--resume ID) or a new one, and locks it for
// this process. Without a usable state folder a new session runs
// unrecorded, with a notice; asking to resume one is then an error. The
// store is returned for pruning (nil when there is none).
//
// A session another baton is writing is never shared: a headless run
// stops with the reason (a script must not silently diverge), the TUI
// starts a new session and says why.
func openTranscript(inv *invocation, now time.Time) (*transcript.Dir, *transcript.Store, []string, error) {
	if inv.flags.claude.noPersistence && !inv.flags.cont && inv.flags.resume == nil {
		return nil, nil, nil, nil // --no-session-persistence
	}
	store, err := openStore(inv)
	if err != nil {
		if inv.flags.cont || inv.flags.resume != nil {
			return nil, nil, nil, err
		}
		return nil, nil, []string{err.Error() + "; this session is not recorded"}, nil
	}
	var dir *transcript.Dir
	switch {
	case inv.flags.cont:
		dir, err = store.Latest(inv.workspace)
	case inv.flags.resume != nil:
		dir, err = store.Open(inv.workspace, *inv.flags.resume)
	default:
		dir, err = store.Create(inv.workspace, now)
	}
	if err != nil {
		return nil, nil, nil, err
	}
	err = dir.Lock()
	if err == nil {
		return dir, store, nil, nil
	}
	if !errors.Is(err, transcript.ErrInUse) || inv.headless {
		return nil, nil, nil, fmt.Errorf("%w; run baton without --continue or --resume for a new session", err)
	}
	fresh, ferr := store.Create(inv.workspace, now)
	if ferr == nil {
		ferr = fresh.Lock()
	}
	if ferr != nil {
		return nil, nil, nil, errors.Join(err, ferr)
	}
	return fresh, store, []string{err.Error() + "; this is a new session (" + fresh.ID() + ")"}, nil
}

// pruneEvery is how often a project's sessions are pruned: ages are
// counted in days, and a walk over thousands of stored sessions at every
// start would make start-up grow with history.
const pruneEvery = 24 * time.Hour

// pruneInBackground removes this project's sessions older than the
// configured age, off the start-up path and at most once per pruneEvery.
// A failure is logged (nothing may print while the TUI runs). The returned
// wait lets a prune still running finish, so it never outlives the run; a
// signal (ctx) stops it between two sessions, and the next claim takes it
// up again.
func pruneInBackground(ctx context.Context, store *transcript.Store, inv *invocation, now time.Time) (wait func()) {
	if store == nil || inv.cfg.PruneAfterDays <= 0 {
		return func() {}
	}
	due, err := store.ClaimPrune(inv.workspace, now, pruneEvery)
	if err != nil {
		slog.Warn("pruning old sessions", "err", err)
	}
	if !due {
		return func() {}
	}
	done := make(chan struct{})
	// This goroutine ends when the project's folder is pruned or ctx ends
	// (Prune checks it between sessions).
	go func() {
		defer close(done)
		n, err := store.Prune(ctx, inv.workspace, time.Duration(inv.cfg.PruneAfterDays)*24*time.Hour, now)
		if err != nil && ctx.Err() == nil {
			slog.Warn("pruning old sessions", "err", err)
		}
		slog.Debug("pruned old sessions", "removed", n)
	}()
	return func() { <-done }
}

// listSessions prints this folder's sessions (every folder's with
// --all), most recently active first, as --continue picks them.
func listSessions(inv *invocation, stdout, stderr io.Writer) int {
	store, err := openStore(inv)
	if err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return exitUsage
	}
	var list []transcript.Summary
	if inv.flags.all {
		list, err = store.ListAll()
	} else {
		list, err = store.List(inv.workspace)
	}
	if err != nil && !errors.Is(err, transcript.ErrNoSession) {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return exitFailed
	}
	where := "for " + inv.workspace
	if inv.flags.all {
		where = "in any folder"
	}
	if len(list) == 0 {
		fmt.Fprintf(stdout, "no sessions yet %s\n", where)
		return exitOK
	}
	fmt.Fprintf(stdout, "sessions %s, most recently active first\n\n", where)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tLAST ACTIVE\tTURNS\tTOKENS\tCOST\tFOLDER\tTITLE")
	for _, s := range list {
		cost := "-"
		if s.CostKnown {
			cost = fmt.Sprintf("$%.4f", s.Cost)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\t%s\n", s.ID, s.LastActive.Local().Format("2006-01-02 15:04"),
			s.Turns, s.Tokens, cost, folderLabel(s.Workspace, inv.env["HOME"]), oneLine(termtext.Clean(s.Title), 60))
	}
	if err := tw.Flush(); err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return exitFailed
	}
	self := thisProgram(inv.env)
	fmt.Fprintf(stdout, "\nresume one with: %s in its folder   (or %s for the first row of this folder)\n", self.with("--resume ID"), self.with("--continue"))
	return exitOK
}

// folderLabel shows a session's folder with the home folder as ~, or "?"
// when the session did not record it.
func folderLabel(workspace, home string) string {
	home = strings.TrimSuffix(home, "/")
	switch {
	case workspace == "":
		return "?"
	case home != "" && workspace == home:
		return "~"
	case home != "" && strings.HasPrefix(workspace, home+"/"):
		return "~" + workspace[len(home):]
	}
	return oneLine(termtext.Clean(workspace), 60)
}
