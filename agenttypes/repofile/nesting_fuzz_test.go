package repofile

import (
	"encoding/json"
	"testing"

	"github.com/BurntSushi/toml"
	"go.yaml.in/yaml/v3"
)

// depthOf is how deep a decoded value nests: every table, array or object
// level and every key below the top.
func depthOf(v any) int {
	deepest := 0
	switch v := v.(type) {
	case map[string]any:
		for _, e := range v {
			deepest = max(deepest, 1+depthOf(e))
		}
	case []map[string]any:
		for _, e := range v {
			deepest = max(deepest, 1+depthOf(e))
		}
	case []any:
		for _, e := range v {
			deepest = max(deepest, 1+depthOf(e))
		}
	}
	return deepest
}

// FuzzNestingNeverCountsFewer checks the scan against the real parsers:
// whatever they accept nests no deeper than the scan says (the scan may
// say more), and no input makes the scan fail.
func FuzzNestingNeverCountsFewer(f *testing.F) {
	for _, seed := range []string{
		`a = [[1], {b = {c = 2}}]`, "[a.b]\nc.d = {e = [1.5]}", `x = """[[[
"""`, `{"a": [{"b": "[["}]}`, "a:\n  - [b, {c: d}]\n  - e: 'f''g'\n", "k: |\n  [[[[\n",
		"a.\"b.c\".d = 1\n[[e.f]]\ng = 1", "// c\n{\"a\": /* [ */ [1]}", "? - a\n: - b\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		data := []byte(text)
		var tv map[string]any
		if _, err := toml.Decode(text, &tv); err == nil {
			if got, _ := Nesting(data, TOML); got < depthOf(tv) && got <= MaxNesting {
				t.Fatalf("TOML scan says %d, the file nests %d:\n%s", got, depthOf(tv), text)
			}
		}
		var jv any
		if json.Unmarshal(data, &jv) == nil {
			if got, _ := Nesting(data, JSON); got < depthOf(jv) && got <= MaxNesting {
				t.Fatalf("JSON scan says %d, the file nests %d:\n%s", got, depthOf(jv), text)
			}
		}
		var yv any
		if yaml.Unmarshal(data, &yv) == nil {
			Nesting(data, YAML) // YAML's count is checked for not failing only
		}
	})
}
