package shell

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Bash evaluates an array subscript wherever it reads a variable's name
// or does arithmetic, and a subscript may hold a command substitution:
// `read 'a[$(cmd)]'`, `unset 'a[$(cmd)]'`, `[[ 'a[$(cmd)]' -eq 1 ]]` and
// `x='a[$(cmd)]'; echo $((x))` all run cmd, though the line shows it only
// inside a quoted string; so do `a=(['$(cmd)']=1)` and a value assigned
// to a name declared an integer or a nameref (declare -i, local -n).
// Prompt expansion (${x@P}) and indirection
// (${!x}) run a value's substitutions too. What such a string runs is
// only known when bash evaluates it, so hiddenEvaluation reports it and
// the walker lists an opaque command, which meets every deny and ask
// rule.

// nameTakers are the builtins that read their operands as variable names
// or arithmetic; printf only its -v operand.
var nameTakers = []string{
	"read", "printf", "unset", "test", "[", "declare", "typeset", "local", "export", "readonly", "let",
	"wait", "getopts", "mapfile", "readarray",
}

// hiddenEvaluation reports whether a parsed script hands bash a string
// holding a command substitution to evaluate as a name, a subscript or
// arithmetic, directly or through a variable the script sets to one.
func hiddenEvaluation(f *syntax.File) bool {
	risky, evaluatedNames := map[string]bool{}, map[string]bool{}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Assign:
			if x.Name != nil && x.Value != nil && literalHasSubst(x.Value.Parts, false) {
				risky[x.Name.Value] = true
			}
		case *syntax.DeclClause:
			if declaresEvaluated(x) {
				for _, a := range x.Args {
					if a.Name != nil {
						evaluatedNames[a.Name.Value] = true
					}
				}
			}
		}
		return true
	})
	found := false
	// evaluated checks the words of a node bash evaluates.
	evaluated := func(n syntax.Node) {
		if n == nil {
			return
		}
		syntax.Walk(n, func(n syntax.Node) bool {
			switch x := n.(type) {
			case *syntax.Word:
				found = found || literalHasSubst(x.Parts, false) || risky[bareName(x)]
			case *syntax.ParamExp:
				found = found || x.Param != nil && risky[x.Param.Value]
			}
			return !found
		})
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.ArithmExp:
			evaluated(x.X)
		case *syntax.ArithmCmd:
			evaluated(x.X)
		case *syntax.LetClause:
			for _, e := range x.Exprs {
				evaluated(e)
			}
		case *syntax.TestClause:
			evaluated(x.X)
		case *syntax.CStyleLoop:
			evaluated(x.Init)
			evaluated(x.Cond)
			evaluated(x.Post)
		case *syntax.Assign:
			evaluated(x.Index)
			if x.Name != nil && x.Value != nil && evaluatedNames[x.Name.Value] {
				evaluated(x.Value)
			}
		case *syntax.ArrayElem:
			evaluated(x.Index) // a=([i]=v): an indexed array's subscript is arithmetic
		case *syntax.DeclClause:
			for _, a := range x.Args {
				// A bare name (export A) has no value: a nil *Word
				// would reach Walk as a non-nil Node.
				if (a.Naked || a.Name == nil) && a.Value != nil {
					evaluated(a.Value)
				}
			}
		case *syntax.ParamExp:
			evaluated(x.Index)
			if x.Slice != nil {
				evaluated(x.Slice.Offset)
				evaluated(x.Slice.Length)
			}
			promptExpanded := x.Exp != nil && x.Exp.Op == syntax.OtherParamOps && x.Exp.Word != nil && x.Exp.Word.Lit() == "P"
			found = found || (x.Excl || promptExpanded) && x.Param != nil && risky[x.Param.Value]
		case *syntax.CallExpr:
			callEvaluates(x, evaluated)
		}
		return !found
	})
	return found
}

// declaresEvaluated reports whether a declaration gives its names an
// attribute under which bash evaluates what they hold: -i (integer)
// evaluates every value assigned as arithmetic, -n (a nameref) its value
// as a name, subscript included, wherever it is read. A flag only known
// when the shell runs may be either.
func declaresEvaluated(d *syntax.DeclClause) bool {
	if d.Variant != nil && d.Variant.Value == "nameref" {
		return true
	}
	for _, a := range d.Args {
		if a.Name != nil || a.Value == nil {
			continue
		}
		flag := a.Value.Lit()
		if flag == "" || flag[0] == '-' && strings.ContainsAny(flag[1:], "in") {
			return true
		}
	}
	return false
}

// callEvaluates checks the operands a name-taking builtin evaluates.
func callEvaluates(c *syntax.CallExpr, evaluated func(syntax.Node)) {
	if len(c.Args) == 0 || !slices.Contains(nameTakers, literalText(c.Args[0])) {
		return
	}
	printf := literalText(c.Args[0]) == "printf"
	for i, a := range c.Args[1:] {
		switch prev := literalText(c.Args[i]); {
		case !printf:
			evaluated(a)
		case prev == "-v":
			evaluated(a)
		case strings.HasPrefix(literalText(a), "-v") && len(literalText(a)) > 2:
			evaluated(a)
		}
	}
}

// literalText is a word's text as quoting alone decides it, with what
// is not literal left out.
func literalText(w *syntax.Word) string {
	var b strings.Builder
	var add func(parts []syntax.WordPart, quoted bool)
	add = func(parts []syntax.WordPart, quoted bool) {
		for _, p := range parts {
			switch x := p.(type) {
			case *syntax.Lit:
				b.WriteString(Unescape(x.Value, quoted))
			case *syntax.SglQuoted:
				b.WriteString(x.Value)
			case *syntax.DblQuoted:
				add(x.Parts, true)
			}
		}
	}
	add(w.Parts, false)
	return b.String()
}

// literalHasSubst reports whether the literal text of word parts (not a
// substitution the shell runs anyway) holds "$(" or "`".
func literalHasSubst(parts []syntax.WordPart, quoted bool) bool {
	for _, p := range parts {
		text := ""
		switch x := p.(type) {
		case *syntax.Lit:
			text = Unescape(x.Value, quoted)
		case *syntax.SglQuoted:
			text = x.Value
			if x.Dollar {
				text = ansiC(x.Value)
			}
		case *syntax.DblQuoted:
			if literalHasSubst(x.Parts, true) {
				return true
			}
		}
		if strings.Contains(text, "$(") || strings.Contains(text, "`") {
			return true
		}
	}
	return false
}

// bareName is a word that is only a name (a variable read in
// arithmetic), or "".
func bareName(w *syntax.Word) string {
	lit := w.Lit()
	if lit == "" || !isAssignment(lit+"=") {
		return ""
	}
	return lit
}
