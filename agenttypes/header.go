package agenttypes

import "strings"

// Header is a Markdown file's YAML frontmatter, read the way agent files
// are read (Claude Code's lenient header: an unquoted value holding ": "
// is taken as text), for other kinds of files that share the format, such
// as skills' SKILL.md.
type Header struct {
	// Fields are the header's fields in file order.
	Fields []HeaderField
	// Body is the Markdown after the closing "---", and BodyLine the file
	// line it starts on.
	Body     string
	BodyLine int
}

// HeaderField is one field of a header.
type HeaderField struct {
	// Key is as written; Line is its file line.
	Key  string
	Line int
	// Text is the value of a text (scalar) field, and IsText says it is
	// one; Items are a list field's entries, or a text field split at
	// commas outside parentheses.
	Text   string
	IsText bool
	Items  []string
	// Value is the field decoded as YAML (a map, a list, a number …).
	Value any
}

// ReadHeader splits data into its frontmatter and body. A file that does
// not open with a "---" line, or whose header cannot be read, is an error
// that is a Warning naming the line.
func ReadHeader(path string, data []byte) (Header, error) {
	if !hasFrontmatter(data) {
		return Header{}, Warning{File: path, Line: 1,
			Message: "skipped: no frontmatter: the file starts with a --- line, then fields such as name and description, then another --- line"}
	}
	fm, err := readFrontmatter(path, data)
	if err != nil {
		return Header{}, err
	}
	h := Header{Body: fm.body, BodyLine: fm.bodyLine}
	m := fm.fields
	for i := 0; m != nil && i+1 < len(m.Content); i += 2 {
		k, v := deref(m.Content[i]), deref(m.Content[i+1])
		key, ok := scalar(k)
		if !ok || strings.TrimSpace(key) == "" {
			continue
		}
		f := HeaderField{Key: key, Line: lineOf(k)}
		f.Text, f.IsText = scalar(v)
		p := &fileParser{path: path}
		if list, ok := p.items(key, v); ok {
			for _, it := range list {
				f.Items = append(f.Items, it.text)
			}
		}
		_ = v.Decode(&f.Value)
		h.Fields = append(h.Fields, f)
	}
	return h, nil
}
