package agenttypes

import (
	"slices"
	"testing"
)

func TestLookup(t *testing.T) {
	r := NewRegistry(Builtins()...)
	tests := []struct {
		query, want string
	}{
		{"explore", "explore"},
		{"Explore", "explore"},
		{"general-purpose", "general-purpose"},
		{"General_Purpose", "general-purpose"},
		{"generalpurpose", "general-purpose"},
		{" GENERAL-PURPOSE ", "general-purpose"},
		{"General-purpose", "general-purpose"}, // the display name
		{"nope", ""},
		{"", ""},
	}
	for _, tt := range tests {
		got, ok := r.Lookup(tt.query)
		if ok != (tt.want != "") || got.Name != tt.want {
			t.Errorf("Lookup(%q) = %q, %v; want %q", tt.query, got.Name, ok, tt.want)
		}
	}
}

func TestNewRegistryLaterWins(t *testing.T) {
	mine := Type{Name: "Review", Description: "my review", Source: "review.md"}
	r := NewRegistry(append(Builtins(), mine, Type{Source: "nameless.md"})...)
	got, ok := r.Lookup("review")
	if !ok || got.Description != "my review" {
		t.Errorf("Lookup(review) = %+v, %v; want the later definition", got, ok)
	}
	if names := r.Names(); !slices.Equal(names, []string{"explore", "plan", "Review", "test", "general-purpose"}) {
		t.Errorf("Names() = %q, want the override in the built-in's place", names)
	}
	if w := r.Warnings(); len(w) != 1 || w[0].File != "nameless.md" {
		t.Errorf("Warnings() = %v, want one for the nameless type", w)
	}
}

func TestRegistryOrderAndVisibility(t *testing.T) {
	r := NewRegistry(append(Builtins(),
		Type{Name: "zeta"},
		Type{Name: "alpha", Hidden: true},
		Type{Name: "Beta"},
		Type{Name: "plan", Disabled: true},
	)...)
	var all []string
	for _, ty := range r.All() {
		all = append(all, ty.Name)
	}
	if want := []string{"explore", "plan", "review", "test", "general-purpose", "alpha", "Beta", "zeta"}; !slices.Equal(all, want) {
		t.Errorf("All() = %q, want %q", all, want)
	}
	if want := []string{"explore", "review", "test", "general-purpose", "Beta", "zeta"}; !slices.Equal(r.Names(), want) {
		t.Errorf("Names() = %q, want %q", r.Names(), want)
	}
	if got := r.Visible(); len(got) != 6 {
		t.Errorf("Visible() has %d types, want 6", len(got))
	}
	if _, ok := r.Lookup("alpha"); !ok {
		t.Error("Lookup(alpha) did not find a hidden type")
	}
	if _, ok := r.Lookup("plan"); ok {
		t.Error("Lookup(plan) found a disabled type")
	}
}

func TestRegistryHandsOutCopies(t *testing.T) {
	r := NewRegistry(Type{Name: "a", Tools: []string{"grep"}, Extra: map[string]any{"k": 1}})
	got, _ := r.Lookup("a")
	got.Tools[0] = "write_file"
	got.Extra["k"] = 2
	all := r.All()
	all[0].Tools[0] = "run_command"
	if again, _ := r.Lookup("a"); again.Tools[0] != "grep" || again.Extra["k"] != 1 {
		t.Errorf("registry changed through a returned value: %+v", again)
	}
}

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"General_Purpose": "generalpurpose",
		"code-reviewer":   "codereviewer",
		" Code Reviewer ": "codereviewer",
		"":                "",
	} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}
