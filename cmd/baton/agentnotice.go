package main

import (
	"fmt"
	"strings"

	"github.com/seed-e4e525a6/baton/agenttypes"
)

// agentFilesNotice is the one status line the TUI gives the agent-file
// problems: how many files were skipped and how many load with warnings,
// pointing to /agents, which lists each. One line, however many files,
// so no warning is cut off mid-sentence and none hides the others.
func agentFilesNotice(warnings []agenttypes.Warning, loaded []agenttypes.Type) string {
	sources := map[string]bool{}
	for _, t := range loaded {
		sources[t.Source] = true
	}
	skipped, warned := map[string]bool{}, map[string]bool{}
	for _, w := range warnings {
		if sources[w.File] {
			warned[w.File] = true
		} else {
			skipped[w.File] = true
		}
	}
	var parts []string
	if n := len(skipped); n > 0 {
		parts = append(parts, fmt.Sprintf("%d agent %s skipped", n, files(n)))
	}
	if n := len(warned); n > 0 {
		parts = append(parts, fmt.Sprintf("%d agent %s with warnings", n, files(n)))
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, ", ") + " — /agents"
}

// files is "file" or "files" for n.
func files(n int) string {
	if n == 1 {
		return "file"
	}
	return "files"
}
