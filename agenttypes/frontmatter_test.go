package agenttypes

import "testing"

func TestBadYAMLLines(t *testing.T) {
	tests := []struct {
		name, header string
		line         int
	}{
		{"colon in an indented value", "name: a\nmeta:\n  owner: a: b\n", 4},
		{"colon in a quoted value's tail", "name: a\ndescription: \"a\" b: c\n", 3},
		{"bad indentation", "name: a\n  description: b\n", 3},
		{"list inside a mapping", "name: a\ndescription: b\n- Read\n", 4},
		{"unclosed flow list", "name: a\ndescription: b\ntools: [Read, Grep\nmodel: x\n", 4},
		{"unclosed quote", "name: a\ndescription: \"b\n", 3},
		{"unknown anchor", "name: a\ndescription: *d\n", 1},
		{"control character", "name: a\ndescription: \x01\n", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := ParseFile("a.md", []byte("---\n"+tt.header+"---\nbody\n"))
			if err == nil {
				t.Fatal("ParseFile succeeded, want bad YAML")
			}
			if w := skipWarning(t, err); w.Line != tt.line {
				t.Errorf("warning %v is on line %d, want %d", w, w.Line, tt.line)
			}
		})
	}
}

func TestCutHeader(t *testing.T) {
	tests := []struct {
		rest, header, body string
		closing            int
		ok                 bool
	}{
		{"a: b\n---\nbody\n", "a: b\n", "body\n", 3, true},
		{"a: b\n--- \t\nbody", "a: b\n", "body", 3, true},
		{"  a: b\n  ---\n  body", "  a: b\n", "  body", 3, true},
		{"---\nbody", "", "body", 2, true},
		{"a: b\n---", "a: b\n", "", 3, true},
		{"a: b\n----\nbody", "", "", 0, false},
		{"", "", "", 0, false},
	}
	for _, tt := range tests {
		header, body, closing, ok := cutHeader(tt.rest)
		if header != tt.header || body != tt.body || closing != tt.closing || ok != tt.ok {
			t.Errorf("cutHeader(%q) = %q, %q, %d, %v; want %q, %q, %d, %v",
				tt.rest, header, body, closing, ok, tt.header, tt.body, tt.closing, tt.ok)
		}
	}
}

// TestLenientHeader reads what strict YAML rejects the way OpenCode's
// fallback does, keeping every later warning on its own line.
func TestLenientHeader(t *testing.T) {
	data := "---\nname: a\ndescription: Use when: the user asks \"why\" \\n here\nsteps: many\ncolor: red\n---\nbody\n"
	got, warns, err := ParseFile("a.md", []byte(data))
	if err != nil {
		t.Fatalf("ParseFile: %v", err)
	}
	if want := `Use when: the user asks "why" \n here`; got.Description != want || got.Color != "red" {
		t.Errorf("description %q color %q, want %q red", got.Description, got.Color, want)
	}
	checkWarnings(t, "a.md", warns, []string{"4: steps must be a whole number"})
}
