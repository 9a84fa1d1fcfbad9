package parse

import "strings"

// block is the finished block a node was read into.
func (n *node) block() Block {
	switch n.kind {
	case kindQuote:
		return &Quote{Blocks: blocks(n.children)}
	case kindList:
		l := &List{Ordered: n.ordered, Start: n.number, Marker: n.marker, Tight: n.tight()}
		for _, item := range n.children {
			l.Items = append(l.Items, Item{Blocks: blocks(item.children)})
		}
		return l
	case kindHeading:
		return &Heading{Level: n.level, Text: strings.Join(n.lines, "\n")}
	case kindBreak:
		return &ThematicBreak{}
	case kindFence:
		return &CodeBlock{Fenced: true, Info: n.info, Lines: n.lines}
	case kindIndented:
		return &CodeBlock{Lines: n.lines}
	case kindHTML:
		return &HTMLBlock{Lines: n.lines}
	}
	return &Paragraph{Lines: n.lines}
}

// blocks is the finished blocks of nodes.
func blocks(nodes []*node) []Block {
	out := make([]Block, 0, len(nodes))
	for _, n := range nodes {
		out = append(out, n.block())
	}
	return out
}

// tight says whether a list is tight: no blank line between two of its
// items, or between two blocks of an item.
func (n *node) tight() bool {
	for i, item := range n.children {
		if i > 0 && item.first > n.children[i-1].last+1 {
			return false
		}
		for j := 1; j < len(item.children); j++ {
			if item.children[j].first > item.children[j-1].last+1 {
				return false
			}
		}
	}
	return true
}
