package config

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
)

// aliasesKey is the [models.aliases] table: a model an agent file names
// ("sonnet", "anthropic/claude-sonnet-4-20250514") mapped to one the
// endpoint serves. It shares [models] with the per-model tables, so a
// model cannot itself be called "aliases".
const aliasesKey = "aliases"

// maxAliases bounds the table; more is a generated file, not a choice.
const maxAliases = 500

// readAliases takes [models.aliases] out of a decoded file: a table of
// strings, each naming a model. ok is false when the file has none.
func readAliases(raw map[string]any) (aliases map[string]string, ok bool, err error) {
	models, _ := raw["models"].(map[string]any)
	v, ok := models[aliasesKey]
	if !ok {
		return nil, false, nil
	}
	table, isTable := v.(map[string]any)
	if !isTable {
		return nil, true, fmt.Errorf("models.aliases: %w", valueError{"a table ([models.aliases]) of model names", v})
	}
	if len(table) > maxAliases {
		return nil, true, fmt.Errorf("models.aliases: more than %d aliases", maxAliases)
	}
	aliases = make(map[string]string, len(table))
	for _, from := range slices.Sorted(maps.Keys(table)) {
		to, isText := table[from].(string)
		if !isText || strings.TrimSpace(to) == "" {
			return nil, true, fmt.Errorf("models.aliases.%s: %w", toml.Key{from}, valueError{"a model name", table[from]})
		}
		aliases[from] = strings.TrimSpace(to)
	}
	return aliases, true, nil
}

// withoutAliasKeys drops [models.aliases] keys from the keys the typed
// decode left over: readAliases has read them.
func withoutAliasKeys(keys []toml.Key) []toml.Key {
	return slices.DeleteFunc(keys, func(k toml.Key) bool {
		return len(k) >= 2 && k[0] == "models" && k[1] == aliasesKey
	})
}
