package config

import (
	"fmt"
	"maps"
	"slices"

	"github.com/BurntSushi/toml"

	"github.com/seed-e4e525a6/baton/agenttypes"
)

// maxConfigAgents bounds a file's [agents]: more is a generated file.
const maxConfigAgents = 100

// agentTable is one [agents.NAME] table, kept whole for the agent
// types' own reader (agenttypes.ConfigAgent), which reads an agent
// file's fields the same way.
type agentTable struct {
	fields map[string]any
}

// UnmarshalTOML implements toml.Unmarshaler.
func (a *agentTable) UnmarshalTOML(v any) error {
	table, ok := v.(map[string]any)
	if !ok {
		return valueError{"a table ([agents.NAME] with description, runner, acp …)", v}
	}
	a.fields = table
	return nil
}

// readAgents turns a file's [agents] into agent types. display names
// the file in messages, and each message names the table's key. In the
// person's file any problem with an agent is an error; a project's
// never keeps baton from starting: its problems are notices. Whether a
// project's agents load at all is the folder's trust's to say
// (agenttypes.Untrusted), as for its agent files.
func (c *Config) readAgents(tables map[string]agentTable, display string, project bool) ([]agenttypes.Type, error) {
	if len(tables) > maxConfigAgents {
		err := fmt.Errorf("%s: agents: more than %d agents", display, maxConfigAgents)
		if !project {
			return nil, err
		}
		c.Notices = append(c.Notices, err.Error()+"; none loaded")
		return nil, nil
	}
	var types []agenttypes.Type
	for _, name := range slices.Sorted(maps.Keys(tables)) {
		where := fmt.Sprintf("%s: agents.%s", display, toml.Key{name})
		t, warnings, err := agenttypes.ConfigAgent(where, name, tables[name].fields)
		if !project && err == nil && len(warnings) > 0 {
			// The person's own file is held to every field, as the
			// rest of it is.
			err = warnings[0]
		}
		if !project && err != nil {
			return nil, err
		}
		for _, w := range warnings {
			c.Notices = append(c.Notices, w.String())
		}
		if err != nil {
			c.Notices = append(c.Notices, err.Error())
			continue
		}
		types = append(types, t)
	}
	return types, nil
}

// withoutAgentKeys drops the keys inside [agents.NAME] tables from the
// keys the typed decode left over: readAgents reads them.
func withoutAgentKeys(keys []toml.Key) []toml.Key {
	return slices.DeleteFunc(keys, func(k toml.Key) bool { return len(k) >= 3 && k[0] == "agents" })
}
