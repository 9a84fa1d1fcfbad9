package demo

import (
	"regexp"
	"strings"
	"sync"
)

// changeFile is the file the demo's write-capable child proposes to
// create: a new file, so approving it changes nothing that was there.
const changeFile = "BATON_DEMO_CHANGE.md"

// changeContent is what the proposed file holds.
const changeContent = "# A change proposed by baton's offline demo\n\n" +
	"A general-purpose sub-agent wrote this file after you approved its write card.\n" +
	"With a real model connected, this is where the edit you asked for would be.\n" +
	"Delete this file whenever you like.\n"

// changeDelegation is the write-capable child a request for a change
// adds, so the person sees a write card and its diff.
var changeDelegation = delegation{types: []string{"general-purpose"}, description: "propose the change",
	job:    "Propose the change the person asked for as an edit they approve: write " + changeFile + ".",
	report: "Report the file you wrote, or that the write was refused."}

// changePlan writes the proposed file; its write card is the point.
func changePlan() plan {
	return plan{name: "change", goal: "Proposed the change as a new file", probes: []probe{
		{tool: "write_file", args: always(map[string]any{"path": changeFile, "content": changeContent})},
	}}
}

// changeWords are the verbs of a request to change the code.
func changeWords() *regexp.Regexp {
	changeWordsOnce.Do(func() { changeWordsValue = buildChangeWords() })
	return changeWordsValue
}

// changeWordsOnce and changeWordsValue hold the table, built on first use
// (a zero sync.Once costs nothing at start; sync.OnceValue is init code).
var (
	changeWordsOnce  sync.Once
	changeWordsValue *regexp.Regexp
)

// buildChangeWords builds the table.
func buildChangeWords() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(add|change|fix|write|create|rename|refactor|update|implement|remove|delete|edit|make|replace)\b`)
}

// wantsChange reports whether the person asked for a change rather than
// a question about the folder.
func wantsChange(asked string) bool {
	return changeWords().MatchString(asked) && !strings.HasPrefix(strings.TrimSpace(strings.ToLower(asked)), "what")
}
