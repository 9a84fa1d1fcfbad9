package config

import (
	"slices"

	"github.com/seed-e4e525a6/baton/agenttypes"
)

// ToolNames are the names --allow and the config's tool lists accept.
func ToolNames() []string { return append(slices.Clone(agenttypes.AllTools), agenttypes.TaskTool) }
