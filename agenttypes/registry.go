package agenttypes

import (
	"cmp"
	"maps"
	"slices"
	"strings"
)

// Registry holds the agent types of a session, one per normalized name.
// It is immutable after construction, so it may be shared between
// goroutines; every Type it returns is a copy.
type Registry struct {
	types    map[string]Type // by Normalize(Name)
	order    []string        // keys of types in listing order
	warnings []Warning
	withheld []Type // project agents of an untrusted folder, see Withheld
}

// NewRegistry builds a registry from types; a later type replaces an
// earlier one whose name normalizes the same, which is how files
// override built-ins. Types without a name are left out with a warning.
func NewRegistry(types ...Type) *Registry {
	r := &Registry{types: make(map[string]Type, len(types))}
	for _, t := range types {
		key := Normalize(t.Name)
		if key == "" {
			r.warnings = append(r.warnings, Warning{File: t.Source, Message: "agent type without a name left out"})
			continue
		}
		r.types[key] = t.clone()
	}
	rank := make(map[string]int)
	for i, name := range builtinNames() {
		rank[name] = i + 1
	}
	r.order = slices.SortedFunc(maps.Keys(r.types), func(a, b string) int {
		ra, rb := rank[a], rank[b]
		switch {
		case ra != 0 && rb != 0:
			return cmp.Compare(ra, rb)
		case ra != 0:
			return -1
		case rb != 0:
			return 1
		}
		return cmp.Compare(a, b)
	})
	return r
}

// Normalize reduces a type name to the form names are matched in:
// lowercase, without '-', '_' or spaces, so the model may write
// "General_Purpose" or "generalpurpose" for "general-purpose".
func Normalize(name string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '-', '_', ' ':
			return -1
		}
		return r
	}, strings.ToLower(strings.TrimSpace(name)))
}

// Lookup finds a type by name, ignoring case, '-' and '_'; failing that,
// by display name, since models sometimes echo what the panes show
// ("General-purpose"). Hidden types are found; disabled ones are not.
func (r *Registry) Lookup(name string) (Type, bool) {
	key := Normalize(name)
	if key == "" {
		return Type{}, false
	}
	if t, ok := r.types[key]; ok {
		if t.Disabled {
			return Type{}, false
		}
		return t.clone(), true
	}
	for _, k := range r.order {
		if t := r.types[k]; !t.Disabled && Normalize(t.DisplayName) == key {
			return t.clone(), true
		}
	}
	return Type{}, false
}

// All returns every type, hidden and disabled ones included (for
// /agents): built-ins first in their usual order, then the rest by name.
func (r *Registry) All() []Type {
	return r.filter(func(Type) bool { return true })
}

// Visible returns the types offered to the model: neither hidden nor
// disabled, in the order of All.
func (r *Registry) Visible() []Type {
	return r.filter(func(t Type) bool { return !t.Hidden && !t.Disabled })
}

// Names returns the names of the visible types, for error messages that
// list the valid choices.
func (r *Registry) Names() []string {
	var names []string
	for _, t := range r.Visible() {
		names = append(names, t.Name)
	}
	return names
}

// Warnings returns the problems met while building the registry, in the
// order they were found.
func (r *Registry) Warnings() []Warning {
	return slices.Clone(r.warnings)
}

func (r *Registry) filter(keep func(Type) bool) []Type {
	var out []Type
	for _, k := range r.order {
		if t := r.types[k]; keep(t) {
			out = append(out, t.clone())
		}
	}
	return out
}

// clone copies the slices and map of t so callers cannot change a
// registry's types through the values it hands out.
func (t Type) clone() Type {
	t.Tools = slices.Clone(t.Tools)
	t.Capabilities = slices.Clone(t.Capabilities)
	t.DroppedTools = slices.Clone(t.DroppedTools)
	t.WithheldTools = slices.Clone(t.WithheldTools)
	t.Permissions = t.Permissions.clone()
	t.Skills = slices.Clone(t.Skills)
	t.Verify = slices.Clone(t.Verify)
	if t.Temperature != nil {
		v := *t.Temperature
		t.Temperature = &v
	}
	if t.TopP != nil {
		v := *t.TopP
		t.TopP = &v
	}
	t.Extra = maps.Clone(t.Extra)
	return t
}
