package rules

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/seed-e4e525a6/baton/engine/shell"
)

// opaque stands for a word whose value is only known when the shell runs
// it ($X, $(…)); it equals no rule word.
const opaque = "\x00"

// part is one simple command of a command line. plain is false for
// anything a prefix rule cannot vouch for: no words, assignments before
// the command, redirection into a file, arithmetic or parameter tricks
// that assign, loops that set variables, functions and declarations.
type part struct {
	words []string
	plain bool
}

// parser reads commands the way run_command runs them (bash -c).
func parser() *syntax.Parser { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }

// splitCommand parses a command line into its simple commands, wherever
// they sit: lists, pipelines, subshells, blocks, conditions, command and
// process substitutions. unparsed is true when it is not valid shell.
func splitCommand(cmd string) (parts []part, unparsed bool) {
	file, err := parser().Parse(strings.NewReader(cmd), "")
	if err != nil {
		return nil, true
	}
	syntax.Walk(file, func(n syntax.Node) bool {
		if st, ok := n.(*syntax.Stmt); ok {
			if p, ok := stmtPart(st); ok {
				parts = append(parts, p)
			}
		}
		return true
	})
	return parts, false
}

// stmtPart is the part a statement adds, if any: a command, or a
// container (a list, a subshell) whose redirections or kind make the
// whole unplain. Containers whose insides are parts of their own add
// nothing.
func stmtPart(st *syntax.Stmt) (part, bool) {
	redirsOK := plainRedirects(st.Redirs)
	switch cmd := st.Cmd.(type) {
	case *syntax.CallExpr:
		if len(cmd.Args) == 0 {
			return part{}, true // a bare assignment
		}
		p := part{plain: redirsOK && len(cmd.Assigns) == 0}
		for _, w := range cmd.Args {
			lit, ok := wordLiteral(w)
			if !ok {
				lit = opaque
				p.plain = p.plain && plainArg(w)
			}
			p.words = append(p.words, lit)
		}
		return p, true
	case *syntax.BinaryCmd, *syntax.Subshell, *syntax.Block, *syntax.IfClause, *syntax.WhileClause, *syntax.TimeClause:
		if redirsOK {
			return part{}, false
		}
	}
	return part{}, true // nil (only redirections), loops, functions, declarations …
}

// plainRedirects accepts input, here-documents, fd duplication and
// output thrown away; a write into a file is not what a command prefix
// vouches for.
func plainRedirects(rs []*syntax.Redirect) bool {
	for _, r := range rs {
		if r.N != nil && strings.HasPrefix(r.N.Value, "{") {
			return false // {var}> assigns a variable
		}
		target, literal := wordLiteral(r.Word)
		switch r.Op {
		case syntax.RdrIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		case syntax.DplIn, syntax.DplOut:
			// >&word writes a file unless word is a descriptor or "-",
			// and a variable (>&$F) may name either.
			if !literal || target != "-" && strings.Trim(target, "0123456789") != "" {
				return false
			}
		case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll:
			if target != "/dev/null" {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// plainArg accepts an argument word whose value is only known at run
// time but which cannot change what runs: variables read plainly, and
// substitutions, whose own commands are parts that must match.
func plainArg(w *syntax.Word) bool {
	ok := true
	var visit func(parts []syntax.WordPart)
	visit = func(parts []syntax.WordPart) {
		for _, wp := range parts {
			switch x := wp.(type) {
			case *syntax.Lit, *syntax.SglQuoted, *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ExtGlob:
			case *syntax.DblQuoted:
				visit(x.Parts)
			case *syntax.ParamExp:
				ok = ok && x.Param != nil && x.Exp == nil && x.Repl == nil && x.Slice == nil &&
					x.Index == nil && !x.Excl && !x.Length && !x.Width && x.Names == 0
			default: // arithmetic can assign: $((PATH=5))
				ok = false
			}
		}
	}
	visit(w.Parts)
	return ok
}

// wordLiteral is a word's value when quoting alone decides it.
func wordLiteral(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", false
	}
	var b strings.Builder
	if !appendLiteral(&b, w.Parts, false) {
		return "", false
	}
	return b.String(), true
}

// appendLiteral writes literal parts, removing quotes and escapes as the
// shell would; inDouble says the parts sit inside double quotes.
func appendLiteral(b *strings.Builder, parts []syntax.WordPart, inDouble bool) bool {
	for _, wp := range parts {
		switch x := wp.(type) {
		case *syntax.Lit:
			b.WriteString(shell.Unescape(x.Value, inDouble))
		case *syntax.SglQuoted:
			if x.Dollar {
				return false
			}
			b.WriteString(x.Value)
		case *syntax.DblQuoted:
			if x.Dollar || !appendLiteral(b, x.Parts, true) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// literalWords parses a rule's command: plain words only.
func literalWords(s string) ([]string, bool) {
	parts, unparsed := splitCommand(s)
	if unparsed || len(parts) != 1 || !parts[0].plain {
		return nil, false
	}
	for _, w := range parts[0].words {
		if w == opaque {
			return nil, false
		}
	}
	return parts[0].words, true
}

// writable reports whether words are written back (quoteWords) as plain
// words that read as themselves: a control character is written as
// $'…', which is not plain, so a rule holding one could not be kept.
func writable(words []string) bool {
	again, ok := literalWords(quoteWords(words))
	return ok && slices.Equal(again, words)
}

// quoteWords writes words back so that literalWords reads them again.
func quoteWords(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		q, err := syntax.Quote(w, syntax.LangBash)
		if err != nil {
			q = w
		}
		out[i] = q
	}
	return strings.Join(out, " ")
}
