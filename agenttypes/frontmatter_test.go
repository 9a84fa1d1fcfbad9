package agenttypes

import "testing"

func TestBadYAMLLines(t *testing.T) {
	tests := []struct {
		name, header string
		line         int
	}{
		{"colon on the first line", "description: Use when: x\n", 2},
		{"colon on a later line", "name: a\ndescription: Use when: x\n", 3},
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
