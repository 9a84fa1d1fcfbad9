package demo

import (
	"encoding/json"
	"fmt"
	"strings"
)

// maxReportLines bounds how much of one child's report the summary quotes.
const maxReportLines = 8

// noText is what the engine returns for a child that said nothing, such
// as one denied before it ran.
const noText = "(the sub-agent produced no text)"

// outcome is one delegation as the main agent received it: the engine's
// task result is the child's report, a blank line, "status: <status> · …"
// and, for a status other than completed, "reason: …".
type outcome struct {
	label  string
	status string
	reason string
	report []string
}

// parseOutcome reads a task result, or describes any other tool result.
func parseOutcome(ex exchange) outcome {
	if ex.name != taskTool {
		return outcome{label: "`" + ex.name + "`", status: "done", report: describe(ex)}
	}
	var args struct {
		Description string `json:"description"`
		Type        string `json:"subagent_type"`
	}
	_ = json.Unmarshal([]byte(ex.args), &args)
	if args.Type == "" {
		args.Type = "custom"
	}
	o := outcome{label: fmt.Sprintf("[%s] %s", args.Type, args.Description)}
	if ex.failed {
		o.status, o.reason = "failed", clip(strings.TrimPrefix(ex.output, "Error: "), 200)
		return o
	}
	text, tail := ex.output, ""
	if i := strings.LastIndex(ex.output, "\n\nstatus: "); i >= 0 {
		text, tail = ex.output[:i], ex.output[i+len("\n\nstatus: "):]
	}
	o.status, _, _ = strings.Cut(tail, " ")
	if o.status = strings.TrimSpace(o.status); o.status == "" {
		o.status = "unknown"
	}
	if _, reason, ok := strings.Cut(tail, "\nreason: "); ok {
		o.reason, _, _ = strings.Cut(reason, "\n")
	}
	for _, line := range strings.Split(text, "\n") {
		if line = strings.TrimRight(line, " \r"); strings.TrimSpace(line) != "" && line != noText {
			o.report = append(o.report, line)
		}
	}
	return o
}

// summary is the main agent's final answer: each child's outcome with
// what it reported, what was denied, and how to leave the demo.
func summary(asked string, results []exchange) string {
	var b strings.Builder
	b.WriteString("Here is what the sub-agents found")
	if asked != "" {
		fmt.Fprintf(&b, " for %q", clip(asked, 80))
	}
	b.WriteString(".\n\n")
	denied := 0
	for _, ex := range results {
		o := parseOutcome(ex)
		if o.status == "denied" {
			denied++
		}
		writeOutcome(&b, o)
	}
	switch {
	case denied == len(results):
		b.WriteString("None of the sub-agents was allowed to run, so I could not look at the folder this time. " +
			"In the TUI, approve a delegation with `y`; a headless run needs `--allow task` or `--yolo`.\n\n")
	case denied > 0:
		fmt.Fprintf(&b, "%d of %d delegations were denied; the findings above cover only the sub-agents that ran.\n\n",
			denied, len(results))
	}
	b.WriteString("---\n\n" + demoNote)
	return b.String()
}

// writeOutcome writes one child's section.
func writeOutcome(b *strings.Builder, o outcome) {
	fmt.Fprintf(b, "**%s** — %s", o.label, o.status)
	if o.reason != "" {
		fmt.Fprintf(b, ": %s", o.reason)
	}
	b.WriteString("\n\n")
	if o.status == "denied" {
		b.WriteString("It never ran, so it found nothing.\n\n")
		return
	}
	report := o.report[:min(len(o.report), maxReportLines)]
	for _, line := range report {
		b.WriteString(line + "\n")
	}
	if len(o.report) > len(report) {
		fmt.Fprintf(b, "- … %d more lines in its transcript\n", len(o.report)-len(report))
	}
	if len(report) > 0 {
		b.WriteString("\n")
	}
}
