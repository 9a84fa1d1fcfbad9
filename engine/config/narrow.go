package config

import (
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/mcp"
)

// WithheldKey is one project setting that was not applied.
type WithheldKey struct {
	Key   string // "limits.max_concurrent", as written in the file
	Value string // what the project asked for (URLs without credentials)
	Now   string // the limit that applies instead; "" when not a limit
	// UserOnly keys ([sessions]) are ignored from a project even when the
	// folder is trusted: they act on sessions of other projects too.
	UserOnly bool
}

// narrowingKeys may be set by an untrusted project whatever their value:
// a theme is cosmetic, [subagents] deny is merged into the person's own
// list (see narrowProject), so it can only take tools away, and a
// project's sandbox.mode and sandbox.network apply only when they confine
// more (checkProjectSandbox refuses the rest before this).
var narrowingKeys = []string{"theme", "mouse", "subagents.deny", "sandbox.mode", "sandbox.network"}

// narrowProject decides which keys of the project file apply. Sessions
// keys never do. Trusted, the rest apply; untrusted, a key applies only
// if it narrows: it is listed in narrowingKeys, it changes nothing, or it
// changes only limits and lowers every one of them below what the user
// layer and defaults give. Any other key, including one added to the
// file format later, is withheld: widening unless it lowers.
func (c Config) narrowProject(fc fileConfig, trusted bool) (fileConfig, []WithheldKey) {
	var out []WithheldKey
	for _, l := range configLeaves(fc) {
		if strings.HasPrefix(l.key, "sessions.") {
			out = append(out, WithheldKey{Key: l.key, Value: l.describe(fc), UserOnly: true})
			l.clear(&fc)
		}
	}
	if trusted {
		return fc, out
	}
	if fc.Subagents.Deny != nil {
		merged := toolList(appendMissing(c.SubagentDeny, *fc.Subagents.Deny))
		fc.Subagents.Deny = &merged
	}
	for _, l := range configLeaves(fc) {
		if slices.Contains(narrowingKeys, l.key) {
			continue
		}
		after := c.clone()
		after.applyFile(l.only(fc), fromProject)
		if reflect.DeepEqual(after, c) {
			continue
		}
		now, lowers := lowersLimits(c, after)
		if lowers {
			continue
		}
		out = append(out, WithheldKey{Key: l.key, Value: l.describe(fc), Now: now})
		l.clear(&fc)
	}
	return fc, out
}

// lowersLimits reports whether after differs from before only in limits,
// each changed one lower than before's effective value (defaults
// included); now is before's value of a changed limit, for messages.
func lowersLimits(before, after Config) (now string, lowers bool) {
	rest := after.clone()
	rest.Limits, rest.Network, rest.MCPTimeouts = before.Limits, before.Network, before.MCPTimeouts
	if !reflect.DeepEqual(rest, before) {
		return "", false
	}
	b, a := effectiveLimits(before), effectiveLimits(after)
	lowers = true
	for i := range b {
		if bv, av := b[i].Int(), a[i].Int(); av != bv {
			now = formatLimit(b[i])
			lowers = lowers && av < bv
		}
	}
	return now, lowers
}

// effectiveLimits are every bound c sets, defaults filled in: the engine's
// limits and the network waits, as a flat list of integer fields, so a
// limit added to either struct is compared without a change here.
func effectiveLimits(c Config) []reflect.Value {
	var out []reflect.Value
	// flatten lists v's integer fields, a zero one replaced by def's.
	var flatten func(v, def reflect.Value)
	flatten = func(v, def reflect.Value) {
		for i := range v.NumField() {
			switch f := v.Field(i); {
			case f.Type() == reflect.TypeOf(event.Budget{}):
				out = append(out, budgetBounds(f.Interface().(event.Budget))...)
			case f.Kind() == reflect.Struct:
				flatten(f, def.Field(i))
			case f.Int() <= 0:
				out = append(out, def.Field(i))
			default:
				out = append(out, f)
			}
		}
	}
	lim := reflect.ValueOf(c.Limits.WithDefaults())
	flatten(lim, lim)
	flatten(reflect.ValueOf(c.Network), reflect.ValueOf(Network{Timeouts: llm.DefaultTimeouts, RetryAfterMax: engine.DefaultRetryAfterMax}))
	flatten(reflect.ValueOf(c.MCPTimeouts), reflect.ValueOf(MCPTimeouts{Startup: mcp.DefaultStartupTimeout, Call: mcp.DefaultCallTimeout}))
	return out
}

// budgetBounds are a budget's bounds as integers, an unset one (no bound)
// the highest, so that only a lower budget lowers: tokens, then cost in
// millionths of a dollar.
func budgetBounds(b event.Budget) []reflect.Value {
	tokens, micros := int64(b.Tokens), int64(b.CostUSD*1e6)
	if tokens <= 0 {
		tokens = math.MaxInt64
	}
	if micros <= 0 {
		micros = math.MaxInt64
	}
	return []reflect.Value{reflect.ValueOf(tokens), reflect.ValueOf(micros)}
}

// formatLimit writes a limit the way the config file does: seconds for
// durations.
func formatLimit(v reflect.Value) string {
	if d, ok := v.Interface().(time.Duration); ok {
		return fmt.Sprintf("%d", int64(d/time.Second))
	}
	return fmt.Sprint(v.Int())
}

// clone copies c deeply enough that applying a file to the copy leaves c
// untouched (applyModel writes into the Models map).
func (c Config) clone() Config {
	c.Models = maps.Clone(c.Models)
	return c
}

// appendMissing returns list followed by the names of more it lacks.
func appendMissing(list, more []string) []string {
	out := slices.Clone(list)
	for _, name := range more {
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// configLeaf is one key set in a file: a top-level key, a key of a table
// such as [limits], or a whole [models."<id>"] table.
type configLeaf struct {
	key    string
	index  []int  // field index path in fileConfig
	mapKey string // the model id of a [models] entry
}

// configLeaves lists the keys fc sets, in declaration order. It walks the
// struct, so a key added to fileConfig is covered without a change here.
func configLeaves(fc fileConfig) []configLeaf {
	var out []configLeaf
	v, t := reflect.ValueOf(fc), reflect.TypeOf(fc)
	for i := range t.NumField() {
		f, name := v.Field(i), t.Field(i).Tag.Get("toml")
		if !t.Field(i).IsExported() {
			continue // [models.aliases] is refused in a project file before this
		}
		switch f.Kind() {
		case reflect.Pointer:
			if !f.IsNil() {
				out = append(out, configLeaf{key: name, index: []int{i}})
			}
		case reflect.Struct:
			for j := range f.NumField() {
				if !f.Field(j).IsNil() {
					out = append(out, configLeaf{key: name + "." + f.Type().Field(j).Tag.Get("toml"), index: []int{i, j}})
				}
			}
		case reflect.Map:
			ids := make([]string, 0, f.Len())
			for _, k := range f.MapKeys() {
				ids = append(ids, k.String())
			}
			slices.Sort(ids)
			for _, id := range ids {
				out = append(out, configLeaf{key: name + "." + toml.Key{id}.String(), index: []int{i}, mapKey: id})
			}
		}
	}
	return out
}

// only returns a file that sets just this leaf, with fc's value.
func (l configLeaf) only(fc fileConfig) fileConfig {
	var out fileConfig
	src, dst := reflect.ValueOf(fc).FieldByIndex(l.index), reflect.ValueOf(&out).Elem().FieldByIndex(l.index)
	if l.mapKey == "" {
		dst.Set(src)
		return out
	}
	m := reflect.MakeMap(src.Type())
	m.SetMapIndex(reflect.ValueOf(l.mapKey), src.MapIndex(reflect.ValueOf(l.mapKey)))
	dst.Set(m)
	return out
}

// clear unsets the leaf in fc; a [models] map is copied first, since fc
// shares it with the decoded file.
func (l configLeaf) clear(fc *fileConfig) {
	f := reflect.ValueOf(fc).Elem().FieldByIndex(l.index)
	if l.mapKey == "" {
		f.Set(reflect.Zero(f.Type()))
		return
	}
	m := reflect.MakeMap(f.Type())
	for _, k := range f.MapKeys() {
		if k.String() != l.mapKey {
			m.SetMapIndex(k, f.MapIndex(k))
		}
	}
	f.Set(m)
}
