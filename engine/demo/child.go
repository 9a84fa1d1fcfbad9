package demo

import (
	"encoding/json"
	"fmt"
	"strings"
)

// plan is what a child does, chosen from its task prompt: a goal for its
// report and probes to run in order.
type plan struct {
	name, goal string
	probes     []probe
}

// probe is one tool call a plan may make. args derives the call's
// arguments from the results so far, or says there is nothing to do;
// label names what a search looks for in the report.
type probe struct {
	tool  string
	label string
	args  func(done []exchange) (map[string]any, bool)
}

// entryPattern finds the files programs usually start from.
const entryPattern = "**/{main.go,main.py,__main__.py,app.py,main.rs,index.js,index.ts,main.js,main.ts}"

// startPattern finds the functions programs start in.
const startPattern = `^func main\(|^def main\(|^if __name__ == |^fn main\(`

// todoPattern finds notes left in the code, a TODO or FIXME followed by a
// colon or a parenthesis, rather than every mention of the words.
const todoPattern = `\b(TODO|FIXME)[:(]`

// The plans are built when asked for: their probes hold maps and
// closures, which package variables would build at every start.

// layoutPlan maps the project layout.
func layoutPlan() plan {
	return plan{name: "layout", goal: "Mapped the project layout", probes: []probe{
		{tool: "list_files", args: always(map[string]any{"depth": 2})},
		{tool: "read_file", args: readManifest},
	}}
}

// entryPlan looks for the entry points.
func entryPlan() plan {
	return plan{name: "entry", goal: "Looked for the entry points", probes: []probe{
		{tool: "find_files", label: "Likely entry files", args: always(map[string]any{"pattern": entryPattern})},
		{tool: "grep", label: "Where programs start", args: always(map[string]any{"pattern": startPattern})},
		{tool: "read_file", args: readEntry},
	}}
}

// notesPlan looks for TODOs and skims the README.
func notesPlan() plan {
	return plan{name: "notes", goal: "Looked for TODOs and skimmed the README", probes: []probe{
		{tool: "grep", label: "TODO and FIXME notes", args: always(map[string]any{"pattern": todoPattern})},
		{tool: "find_files", label: "READMEs at the top", args: always(map[string]any{"pattern": "{README,Readme,readme}*"})},
		{tool: "read_file", args: readReadme},
	}}
}

// child answers a request from a child agent: the plan's next tool call,
// or its report once the plan is done or no tools are offered (the
// request at its step limit).
func child(c *conversation) reply {
	users := c.userTexts()
	prompt := ""
	if len(users) > 0 {
		prompt = users[0]
	}
	p := pickPlan(prompt)
	done := c.exchangesAfter(-1)
	if call, ok := p.next(done, c.offers); ok {
		return reply{calls: []toolCall{call}}
	}
	return reply{text: childReport(p, done, supervisorMessages(users))}
}

// pickPlan chooses by the first line of the task prompt, where the demo's
// main agent states the job; anything else maps the layout.
func pickPlan(prompt string) plan {
	head, _, _ := strings.Cut(strings.ToLower(prompt), "\n")
	switch {
	case strings.Contains(head, "propose the change"):
		return changePlan()
	case strings.Contains(head, "todo") || strings.Contains(head, "fixme") || strings.Contains(head, "readme"):
		return notesPlan()
	case strings.Contains(head, "entry") || strings.Contains(head, "main"):
		return entryPlan()
	}
	return layoutPlan()
}

// plans are every plan, for finding the probe behind a call ID.
func plans() []plan { return []plan{layoutPlan(), entryPlan(), notesPlan(), changePlan()} }

// probeCallID names the call of probe k of plan p.
func probeCallID(p plan, k int) string {
	return fmt.Sprintf("call_demo_%s_%d", p.name, k)
}

// probeOf returns the probe that made the call with this ID.
func probeOf(id string) (probe, bool) {
	for _, p := range plans() {
		for k, pr := range p.probes {
			if probeCallID(p, k) == id {
				return pr, true
			}
		}
	}
	return probe{}, false
}

// next returns the first probe after those already made that is offered
// and has something to do. Probes made are known by their call IDs,
// "call_demo_<plan>_<probe>", so the script needs no state of its own.
func (p plan) next(done []exchange, offered func(string) bool) (toolCall, bool) {
	start := 0
	for _, ex := range done {
		for k := range p.probes {
			if ex.id == probeCallID(p, k) && k >= start {
				start = k + 1
			}
		}
	}
	for k := start; k < len(p.probes); k++ {
		pr := p.probes[k]
		if !offered(pr.tool) {
			continue
		}
		args, ok := pr.args(done)
		if !ok {
			continue
		}
		b, err := json.Marshal(args)
		if err != nil {
			continue
		}
		return toolCall{id: probeCallID(p, k), name: pr.tool, args: string(b)}, true
	}
	return toolCall{}, false
}

// always makes a probe with fixed arguments.
func always(args map[string]any) func([]exchange) (map[string]any, bool) {
	return func([]exchange) (map[string]any, bool) { return args, true }
}

// readManifest reads the project's manifest, or its README, from the
// listing.
func readManifest(done []exchange) (map[string]any, bool) {
	for _, ex := range succeeded(done, "list_files") {
		l := parseListing(ex.output)
		if manifest, _, ok := projectKind(l.files); ok {
			return map[string]any{"path": manifest, "limit": 20}, true
		}
		for _, f := range l.files {
			if isReadme(f) {
				return map[string]any{"path": f, "limit": 20}, true
			}
		}
	}
	return nil, false
}

// readEntry reads the first file where a program starts, else the first
// likely entry file found.
func readEntry(done []exchange) (map[string]any, bool) {
	for _, ex := range succeeded(done, "grep") {
		if hits := parseHits(ex.output); len(hits) > 0 {
			return map[string]any{"path": hits[0].path, "limit": 30}, true
		}
	}
	for _, ex := range succeeded(done, "find_files") {
		if paths := parsePaths(ex.output); len(paths) > 0 {
			return map[string]any{"path": paths[0], "limit": 30}, true
		}
	}
	return nil, false
}

// readReadme reads the top-level README found.
func readReadme(done []exchange) (map[string]any, bool) {
	for _, ex := range succeeded(done, "find_files") {
		if p := shallowest(parsePaths(ex.output)); p != "" {
			return map[string]any{"path": p, "limit": 20}, true
		}
	}
	return nil, false
}

// succeeded returns the exchanges of the named tool that did not fail.
func succeeded(done []exchange, tool string) []exchange {
	var out []exchange
	for _, ex := range done {
		if ex.name == tool && !ex.failed {
			out = append(out, ex)
		}
	}
	return out
}

// supervisorPrefix starts the messages the engine delivers from the person
// into a running child.
const supervisorPrefix = "Message from the person supervising you:"

// supervisorMessages returns what the person sent into the child.
func supervisorMessages(users []string) []string {
	var out []string
	for _, u := range users {
		if rest, ok := strings.CutPrefix(u, supervisorPrefix); ok {
			out = append(out, strings.TrimSpace(rest))
		}
	}
	return out
}
