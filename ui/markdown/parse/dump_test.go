package parse

import (
	"fmt"
	"strings"
)

// dump writes blocks in a short form to compare in tests: the kind, what
// it holds in parentheses, its children in brackets.
func dump(blocks []Block) string {
	var parts []string
	for _, b := range blocks {
		switch b := b.(type) {
		case *Heading:
			parts = append(parts, fmt.Sprintf("H%d(%s)", b.Level, dumpInlines(Inlines(b.Text))))
		case *Paragraph:
			parts = append(parts, fmt.Sprintf("P(%s)", dumpInlines(Inlines(b.Text()))))
		case *ThematicBreak:
			parts = append(parts, "HR")
		case *CodeBlock:
			kind := "Indented"
			if b.Fenced {
				kind = "Fenced " + b.Info
			}
			parts = append(parts, fmt.Sprintf("Code(%s: %s)", kind, strings.Join(b.Lines, "|")))
		case *Quote:
			parts = append(parts, "Quote["+dump(b.Blocks)+"]")
		case *List:
			kind := "Bullet"
			if b.Ordered {
				kind = fmt.Sprintf("Ordered %d", b.Start)
			}
			tight := "loose"
			if b.Tight {
				tight = "tight"
			}
			var items []string
			for _, item := range b.Items {
				items = append(items, "Item["+dump(item.Blocks)+"]")
			}
			parts = append(parts, fmt.Sprintf("List(%s %c %s)[%s]", kind, b.Marker, tight, strings.Join(items, " ")))
		case *HTMLBlock:
			parts = append(parts, fmt.Sprintf("HTML(%s)", strings.Join(b.Lines, "|")))
		}
	}
	return strings.Join(parts, " ")
}

// dumpInlines writes inlines in a short form: plain text as itself, a
// break as / (soft) or // (hard), markup by its kind.
func dumpInlines(ins []Inline) string {
	var b strings.Builder
	for _, in := range ins {
		switch in := in.(type) {
		case *Text:
			b.WriteString(in.Text)
			switch in.Break {
			case SoftBreak:
				b.WriteString("/")
			case HardBreak:
				b.WriteString("//")
			}
		case *CodeSpan:
			fmt.Fprintf(&b, "Code{%s}", in.Text)
		case *Emphasis:
			kind := "Em"
			if in.Strong {
				kind = "Strong"
			}
			fmt.Fprintf(&b, "%s{%s}", kind, dumpInlines(in.Children))
		case *Link:
			fmt.Fprintf(&b, "Link<%s|%s>{%s}", in.Destination, in.Title, dumpInlines(in.Children))
		case *Image:
			fmt.Fprintf(&b, "Image<%s|%s>{%s}", in.Destination, in.Title, dumpInlines(in.Children))
		case *AutoLink:
			fmt.Fprintf(&b, "Auto{%s}", in.Label)
		case *RawHTML:
			fmt.Fprintf(&b, "HTML{%s}", in.Text)
		}
	}
	return b.String()
}
