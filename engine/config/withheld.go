package config

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/hooks"
	"github.com/seed-e4e525a6/baton/engine/skills"
	"github.com/seed-e4e525a6/baton/engine/trust"
)

// trustHint tells the person how to apply what was ignored.
const trustHint = `this folder is not trusted: run "baton trust" (or pass --trust for one run) to apply its project settings`

// WithheldNotices are what the person is told about the project's files:
// which keys, agent files and hooks were ignored, and how to apply them.
// agents are the agent files that wait for trust.
func (c Config) WithheldNotices(agents []agenttypes.Type) []string {
	notes := withheldNotices(c.Withheld, agents)
	for _, n := range hookNotices(c.WithheldHooks) {
		if !slices.Contains(notes, n) { // one trust hint
			notes = append(notes, n)
		}
	}
	return notes
}

// withheldNotices words the ignored project keys for the TUI status line
// and headless stderr: one line per reason, naming the file and keys.
func withheldNotices(keys []WithheldKey, agents []agenttypes.Type) []string {
	var untrusted, userOnly []string
	for _, k := range keys {
		if k.UserOnly {
			userOnly = append(userOnly, k.Key)
		} else {
			untrusted = append(untrusted, k.Key)
		}
	}
	var notes []string
	if len(untrusted) > 0 {
		notes = append(notes, fmt.Sprintf("%s: ignored %s", ProjectFile, strings.Join(untrusted, ", ")))
	}
	if len(untrusted) > 0 || len(agents) > 0 {
		notes = append(notes, trustHint)
	}
	if len(userOnly) > 0 {
		notes = append(notes, fmt.Sprintf("%s: ignored %s: session pruning and cleanup are user settings "+
			"(set them in your user config; a repository must not delete sessions)", ProjectFile, strings.Join(userOnly, ", ")))
	}
	return notes
}

// hookNotices say which of the project's hooks are not run and why.
func hookNotices(withheld []hooks.Hook) []string {
	var files []string
	for _, h := range withheld {
		if !slices.Contains(files, h.Source) {
			files = append(files, h.Source)
		}
	}
	if len(files) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("%s: %s not run: this folder is not trusted", strings.Join(files, ", "), event.Plural(len(withheld), "hook")), trustHint}
}

// TrustRequest is the trust card for folder: the keys c withheld, the
// agent files that wait for trust, the project's hooks (a repository's
// hook is code execution) and, for the person to know, its skills. broad
// is set when the folder is the home folder or the root.
func (c Config) TrustRequest(folder string, broad bool, agents []agenttypes.Type) trust.Request {
	req := withheldRequest(folder, broad, c.Withheld, agents)
	extensionSections(&req, folder, c.WithheldHooks, c.Skills.All())
	return req
}

// withheldRequest is the card's content: what the project wants, by kind.
// broad is set when the folder is the home folder or the root.
func withheldRequest(folder string, broad bool, keys []WithheldKey, agents []agenttypes.Type) trust.Request {
	req := trust.Request{Folder: folder}
	if broad {
		req.Warning = "This is your home folder or the root: read-only tools reach your keys and credentials here without asking."
	}
	sections := map[string][]string{}
	var order []string
	add := func(title, line string) {
		if _, ok := sections[title]; !ok {
			order = append(order, title)
		}
		sections[title] = append(sections[title], line)
	}
	for _, k := range keys {
		if k.UserOnly {
			continue
		}
		line := k.Key + " = " + k.Value
		switch {
		case k.Key == "base_url":
			add("Endpoint", line+" (your API key is still never sent there)")
		case k.Key == "model" || k.Key == "subagent_model" || strings.HasPrefix(k.Key, "models."):
			add("Models", line)
		case k.Now != "":
			add("Raised limits", fmt.Sprintf("%s (yours: %s)", line, k.Now))
		default:
			add("Other settings", line)
		}
	}
	for _, a := range agents {
		add("Agents", fmt.Sprintf("%s (%s): tools %s", a.Name, relTo(folder, a.Source), strings.Join(a.Tools, ", ")))
	}
	for _, title := range order {
		req.Sections = append(req.Sections, trust.Section{Title: title, Lines: sections[title]})
	}
	return req
}

// relTo shortens path to be relative to dir when it lies inside it.
func relTo(dir, path string) string {
	if rel, err := filepath.Rel(dir, path); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return path
}

// extensionSections add the project's hooks, which wait for trust (a
// repository's hook is code execution), and its skills, which load
// either way, to the card.
func extensionSections(req *trust.Request, folder string, withheld []hooks.Hook, found []skills.Skill) {
	var lines []string
	for _, h := range withheld {
		on := string(h.Event)
		if h.Matcher != "" {
			on += " " + h.Matcher
		}
		lines = append(lines, fmt.Sprintf("%s: %s (%s)", on, h.Target(), h.Source))
	}
	if len(lines) > 0 {
		req.Sections = append(req.Sections, trust.Section{Title: "Hooks (commands run at tool calls and prompts)", Lines: lines})
	}
	lines = nil
	for _, sk := range found {
		if sk.Project {
			lines = append(lines, fmt.Sprintf("%s (%s): %s", sk.Name, relTo(folder, sk.File), sk.Description))
		}
	}
	if len(lines) > 0 {
		req.Loaded = append(req.Loaded, trust.Section{Title: "Skills", Lines: lines})
	}
}
