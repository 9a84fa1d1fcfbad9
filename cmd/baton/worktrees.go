package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"

	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/worktree"
)

// listWorktrees is "baton worktrees": the worktrees sub-agents left for
// this repository (kept by --worktrees keep or because a session ended
// before their review, or left by a crash), with how to merge them.
func listWorktrees(ctx context.Context, inv *invocation, stdout, stderr io.Writer) int {
	root := child.DefaultWorktreeRoot(func(k string) string { return inv.env[k] })
	if root == "" {
		fmt.Fprintln(stderr, "baton: worktrees: neither XDG_STATE_HOME nor HOME is set")
		return exitUsage
	}
	repo, err := worktree.Open(ctx, inv.workspace)
	if err != nil {
		fmt.Fprintf(stderr, "baton: worktrees: %v\n", err)
		return exitUsage
	}
	_ = worktree.PruneAdmin(ctx, repo.Top, root)
	all, err := worktree.List(root)
	if err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return exitFailed
	}
	var mine []worktree.Record
	for _, r := range all {
		if filepath.Clean(r.Repo) == repo.Top {
			mine = append(mine, r)
		}
	}
	if len(mine) == 0 {
		fmt.Fprintf(stdout, "no sub-agent worktrees kept for %s\n", repo.Top)
		return exitOK
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "AGENT\tSTATE\tBRANCH\tCREATED\tPATH\tTASK")
	for _, r := range mine {
		branch, state := r.Branch, r.State
		if branch == "" {
			branch = "(uncommitted)"
		}
		switch state {
		case worktree.StateRunning:
			// Its child runs in another baton, or that baton crashed.
			state = "running or crashed"
		case worktree.StatePending:
			state = "unreviewed"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.Agent, state, branch, r.Created.Local().Format("2006-01-02 15:04"),
			r.Dir, oneLine(r.Description, 50))
	}
	if err := tw.Flush(); err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return exitFailed
	}
	fmt.Fprintln(stdout, "\nmerge a kept branch with: git merge BRANCH   (or git -C PATH diff to look first)")
	fmt.Fprintln(stdout, "remove one with: git worktree remove PATH && git branch -D BRANCH")
	return exitOK
}
