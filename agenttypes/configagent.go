package agenttypes

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// promptKeys hold a config agent's system prompt, which an agent file
// keeps in its body.
var promptKeys = []string{"prompt", "instructions"}

// ConfigAgent reads one [agents.NAME] table of baton's TOML config as an
// agent type: name is the table's name, and its keys are the fields of
// an agent file's header (description, tools, model, steps, timeout,
// budget, verify, runner, acp = {command, args, env}, …), read by the
// same handlers, with the system prompt in prompt (or instructions).
// where names the table in messages ("config.toml: agents.gem"), so every
// warning names the key. A table that cannot be used is an error that is
// a Warning.
func ConfigAgent(where, name string, table map[string]any) (Type, []Warning, error) {
	fields := make(map[string]any, len(table))
	fm := frontmatter{fields: &yaml.Node{Kind: yaml.MappingNode}}
	var warnings []Warning
	for key, value := range table {
		if !isPromptKey(key) {
			fields[key] = value
			continue
		}
		text, ok := value.(string)
		if !ok {
			warnings = append(warnings, Warning{File: where, Message: key + " must be text; ignored"})
			continue
		}
		fm.body = text
	}
	if err := fm.fields.Encode(fields); err != nil {
		return Type{}, warnings, Warning{File: where, Message: fmt.Sprintf("skipped: %v", err)}
	}
	t, ws, err := parseFields(where, fm, fileOptions{known: newToolSet(AllTools), name: name})
	warnings = append(warnings, ws...)
	// A table has no lines of its own: its warnings name the key alone.
	// An ACP agent has a prompt of its own, so baton's is optional.
	kept := warnings[:0]
	for _, w := range warnings {
		if strings.HasPrefix(w.Message, emptyBody) {
			if t.ACP != nil {
				continue
			}
			w.Message = "prompt is not set" + strings.TrimPrefix(w.Message, emptyBody)
		}
		w.Line = 0
		kept = append(kept, w)
	}
	warnings = kept
	if w, ok := err.(Warning); ok {
		w.Line = 0
		err = w
	}
	return t, warnings, err
}

// isPromptKey says whether key holds the system prompt.
func isPromptKey(key string) bool {
	for _, k := range promptKeys {
		if Normalize(key) == k {
			return true
		}
	}
	return false
}
