package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/seed-e4e525a6/baton/engine/transcript"
)

// openStore returns the transcript store, redacting every secret found in
// the environment, and prunes sessions older than the configured age.
func openStore(inv *invocation, now time.Time) (*transcript.Store, []string, error) {
	root, err := transcript.DefaultRoot(func(k string) string { return inv.env[k] })
	if err != nil {
		return nil, nil, fmt.Errorf("transcripts: %w", err)
	}
	environ := make([]string, 0, len(inv.env))
	for k, v := range inv.env {
		environ = append(environ, k+"="+v)
	}
	// The key may come from the user config rather than the environment,
	// and a base URL may carry credentials: none of them is ever written.
	secrets := append(transcript.SecretsFromEnv(environ), inv.cfg.APIKey)
	secrets = append(secrets, urlSecrets(inv.cfg.BaseURL)...)
	store := transcript.NewStore(root, transcript.NewRedactor(secrets...))
	var notices []string
	if _, err := store.Prune(time.Duration(inv.cfg.PruneAfterDays)*24*time.Hour, now); err != nil {
		notices = append(notices, "pruning old sessions: "+err.Error())
	}
	return store, notices, nil
}

// openTranscript picks the session's folder: the last one of this folder
// (--continue), a given one (--resume ID) or a new one. Without a usable
// state folder a new session runs unrecorded, with a notice; asking to
// resume one is then an error.
func openTranscript(inv *invocation, now time.Time) (*transcript.Dir, []string, error) {
	store, notices, err := openStore(inv, now)
	if err != nil {
		if inv.flags.cont || inv.flags.resume != nil {
			return nil, nil, err
		}
		return nil, []string{err.Error() + "; this session is not recorded"}, nil
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
		return nil, nil, err
	}
	return dir, notices, nil
}

// listSessions prints this folder's sessions, newest first.
func listSessions(inv *invocation, stdout, stderr io.Writer) int {
	store, _, err := openStore(inv, time.Now())
	if err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return exitUsage
	}
	list, err := store.List(inv.workspace)
	if err != nil && !errors.Is(err, transcript.ErrNoSession) {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return exitFailed
	}
	if len(list) == 0 {
		fmt.Fprintf(stdout, "no sessions yet for %s\n", inv.workspace)
		return exitOK
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTARTED\tTURNS\tTOKENS\tCOST\tFIRST PROMPT")
	for _, s := range list {
		cost := "-"
		if s.CostKnown {
			cost = fmt.Sprintf("$%.4f", s.Cost)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\n", s.ID, s.Started.Local().Format("2006-01-02 15:04"),
			s.Turns, s.Tokens, cost, oneLine(strings.TrimSpace(s.FirstPrompt), 60))
	}
	if err := tw.Flush(); err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return exitFailed
	}
	fmt.Fprintln(stdout, "\nresume one with: baton --resume ID   (or baton --continue for the newest)")
	return exitOK
}
