package main

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/hooks"
	"github.com/seed-e4e525a6/baton/engine/skills"
	"github.com/seed-e4e525a6/baton/ui/trustcard"
)

// trustHint tells the person how to apply what was ignored.
const trustHint = `this folder is not trusted: run "baton trust" (or pass --trust for one run) to apply its project settings`

// withheldNotices words the ignored project keys for the TUI status line
// and headless stderr: one line per reason, naming the file and keys.
func withheldNotices(keys []withheldKey, agents []agenttypes.Type) []string {
	var untrusted, userOnly []string
	for _, k := range keys {
		if k.userOnly {
			userOnly = append(userOnly, k.key)
		} else {
			untrusted = append(untrusted, k.key)
		}
	}
	var notes []string
	if len(untrusted) > 0 {
		notes = append(notes, fmt.Sprintf("%s: ignored %s", projectConfigName, strings.Join(untrusted, ", ")))
	}
	if len(untrusted) > 0 || len(agents) > 0 {
		notes = append(notes, trustHint)
	}
	if len(userOnly) > 0 {
		notes = append(notes, fmt.Sprintf("%s: ignored %s: session pruning and cleanup are user settings "+
			"(set them in your user config; a repository must not delete sessions)", projectConfigName, strings.Join(userOnly, ", ")))
	}
	return notes
}

// describe writes the leaf's value the way the file does, with URL
// credentials left out and strings quoted, so escapes from a hostile
// file reach no terminal.
func (l configLeaf) describe(fc fileConfig) string {
	v := reflect.ValueOf(fc).FieldByIndex(l.index)
	if l.mapKey != "" {
		return describeTable(v.MapIndex(reflect.ValueOf(l.mapKey)))
	}
	return describeValue(v.Elem())
}

func describeValue(v reflect.Value) string {
	switch x := v.Interface().(type) {
	case endpointURL:
		return redactURL(string(x))
	case toolList:
		return "[" + strings.Join(x, ", ") + "]"
	}
	if v.Kind() == reflect.String {
		return fmt.Sprintf("%q", v.String())
	}
	return fmt.Sprint(v.Interface())
}

// describeTable writes a [models."<id>"] table's keys on one line.
func describeTable(v reflect.Value) string {
	var parts []string
	for i := range v.NumField() {
		if f := v.Field(i); !f.IsNil() {
			parts = append(parts, v.Type().Field(i).Tag.Get("toml")+" = "+describeValue(f.Elem()))
		}
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// trustRequest is the card's content: what the project wants, by kind.
// broad is set when the folder is the home folder or the root.
func trustRequest(folder string, broad bool, keys []withheldKey, agents []agenttypes.Type) trustcard.Request {
	req := trustcard.Request{Folder: folder}
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
		if k.userOnly {
			continue
		}
		line := k.key + " = " + k.value
		switch {
		case k.key == "base_url":
			add("Endpoint", line+" (your API key is still never sent there)")
		case k.key == "model" || k.key == "subagent_model" || strings.HasPrefix(k.key, "models."):
			add("Models", line)
		case k.now != "":
			add("Raised limits", fmt.Sprintf("%s (yours: %s)", line, k.now))
		default:
			add("Other settings", line)
		}
	}
	for _, a := range agents {
		add("Agents", fmt.Sprintf("%s (%s): tools %s", a.Name, relTo(folder, a.Source), strings.Join(a.Tools, ", ")))
	}
	for _, title := range order {
		req.Sections = append(req.Sections, trustcard.Section{Title: title, Lines: sections[title]})
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
func extensionSections(req *trustcard.Request, folder string, withheld []hooks.Hook, found []skills.Skill) {
	var lines []string
	for _, h := range withheld {
		on := string(h.Event)
		if h.Matcher != "" {
			on += " " + h.Matcher
		}
		lines = append(lines, fmt.Sprintf("%s: %s (%s)", on, h.Target(), h.Source))
	}
	if len(lines) > 0 {
		req.Sections = append(req.Sections, trustcard.Section{Title: "Hooks (commands run at tool calls and prompts)", Lines: lines})
	}
	lines = nil
	for _, sk := range found {
		if sk.Project {
			lines = append(lines, fmt.Sprintf("%s (%s): %s", sk.Name, relTo(folder, sk.File), sk.Description))
		}
	}
	if len(lines) > 0 {
		req.Loaded = append(req.Loaded, trustcard.Section{Title: "Skills", Lines: lines})
	}
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
