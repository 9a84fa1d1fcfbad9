package agenttypes

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestReadHeaderReadsFieldsInOrder: fields come in file order with their
// lines; a text field holding ": " stays text (Claude Code's lenient
// header); a list and a comma-separated text both give items; the body
// follows with its line. A file without a header is a Warning on line 1.
func TestReadHeaderReadsFieldsInOrder(t *testing.T) {
	data := "---\nname: pdf\ndescription: Use when: the person asks for PDFs\nallowed-tools: Read, Grep(src/**, docs/**)\ntags:\n  - a\n  - b\nlimits: {steps: 3}\n---\nDo the thing.\n"
	h, err := ReadHeader("skills/pdf/SKILL.md", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, f := range h.Fields {
		keys = append(keys, f.Key)
	}
	if !slices.Equal(keys, []string{"name", "description", "allowed-tools", "tags", "limits"}) {
		t.Fatalf("keys %v", keys)
	}
	desc, tools, tags, limits := h.Fields[1], h.Fields[2], h.Fields[3], h.Fields[4]
	if !desc.IsText || desc.Text != "Use when: the person asks for PDFs" || desc.Line != 3 {
		t.Fatalf("lenient text field %+v", desc)
	}
	if !slices.Equal(tools.Items, []string{"Read", "Grep(src/**, docs/**)"}) {
		t.Fatalf("comma list %q", tools.Items)
	}
	if tags.IsText || !slices.Equal(tags.Items, []string{"a", "b"}) {
		t.Fatalf("list field %+v", tags)
	}
	if m, ok := limits.Value.(map[string]any); !ok || m["steps"] != 3 {
		t.Fatalf("map field value %#v", limits.Value)
	}
	if h.Body != "Do the thing.\n" || h.BodyLine != 10 {
		t.Fatalf("body %q at line %d", h.Body, h.BodyLine)
	}
	_, err = ReadHeader("notes.md", []byte("# just Markdown\n"))
	var w Warning
	if !errors.As(err, &w) || w.Line != 1 || w.File != "notes.md" || !strings.Contains(w.Message, "no frontmatter") {
		t.Fatalf("a file without a header: %v", err)
	}
}
