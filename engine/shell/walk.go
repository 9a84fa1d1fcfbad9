package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// walker collects commands while following the script's statement
// structure, which a plain syntax.Walk loses: the current directory,
// variables, the enclosing function and pipeline membership.
type walker struct {
	out   []Command
	vars  map[string]string
	dir   string
	fn    string
	depth int
	err   error
}

// script parses and walks src as a script nested depth levels deep.
func (w *walker) script(src string, depth int) error {
	if depth > MaxDepth {
		return ErrTooDeep
	}
	f, err := parseFile(src)
	if err != nil {
		return err
	}
	saved := w.depth
	w.depth = depth
	if hiddenEvaluation(f) || setsCommandVarUnseen(f) {
		w.out = append(w.out, Command{Args: []string{""}, Opaque: []bool{true}, Dir: w.dir, Func: w.fn, Depth: depth + 1})
	}
	w.stmts(f.Stmts)
	w.depth = saved
	return w.err
}

// nested walks a script found in a string one level deeper, keeping the
// first error. An opaque script may read otherwise when it runs: it is
// listed first as one command whose one word, its text as it reads now,
// is opaque, so that what it runs counts as unknown.
func (w *walker) nested(script Word) {
	if w.err != nil {
		return
	}
	if script.Opaque {
		w.out = append(w.out, Command{Args: []string{script.Text}, Opaque: []bool{true}, Dir: w.dir, Func: w.fn, Depth: w.depth + 1})
		if script.Text == "" {
			return
		}
	}
	if err := w.script(script.Text, w.depth+1); err != nil && w.err == nil {
		w.err = err
	}
}

// nestedValue walks a command held in a value (a setting, a variable)
// like nested, but a value that does not read as a script, or nests too
// deep, counts as an opaque script instead of failing the whole line:
// such values are often not shell at all (a prompt, a program's path).
func (w *walker) nestedValue(value Word) {
	if w.err != nil {
		return
	}
	w.nested(value)
	if w.err != nil {
		w.err = nil
		w.nested(Word{Opaque: true})
	}
}

func (w *walker) stmts(list []*syntax.Stmt) {
	for _, s := range list {
		w.stmt(s, false)
	}
}

// stmt walks one statement; piped marks a pipeline member.
func (w *walker) stmt(s *syntax.Stmt, piped bool) {
	if s == nil {
		return
	}
	for _, r := range s.Redirs {
		w.word(r.Word)
		w.word(r.Hdoc)
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		w.call(c, s, piped)
	case *syntax.BinaryCmd:
		pipe := c.Op == syntax.Pipe || c.Op == syntax.PipeAll
		w.stmt(c.X, pipe || piped)
		w.stmt(c.Y, pipe || piped)
		if pipe {
			w.pipedScript(c)
		}
	case *syntax.Block:
		w.stmts(c.Stmts)
	case *syntax.Subshell:
		dir, vars := w.dir, cloneVars(w.vars)
		w.stmts(c.Stmts)
		w.dir, w.vars = dir, vars
	case *syntax.IfClause:
		for ic := c; ic != nil; ic = ic.Else {
			w.stmts(ic.Cond)
			w.stmts(ic.Then)
		}
	case *syntax.WhileClause:
		w.stmts(c.Cond)
		w.stmts(c.Do)
	case *syntax.ForClause:
		w.substs(c.Loop)
		w.stmts(c.Do)
	case *syntax.CaseClause:
		w.word(c.Word)
		for _, item := range c.Items {
			for _, p := range item.Patterns {
				w.word(p)
			}
			w.stmts(item.Stmts)
		}
	case *syntax.FuncDecl:
		fn := w.fn
		if c.Name != nil {
			w.fn = c.Name.Value
		}
		w.stmt(c.Body, false)
		w.fn = fn
	case *syntax.DeclClause:
		for _, a := range c.Args {
			w.assign(a)
		}
	case *syntax.TimeClause:
		w.stmt(timeProgram(c), piped)
	case *syntax.CoprocClause:
		w.stmt(c.Stmt, piped)
	case nil:
	default: // test clauses, arithmetic, let: only their substitutions run
		w.substs(c)
	}
}

// substs walks the command and process substitutions inside a node.
func (w *walker) substs(n syntax.Node) {
	if n == nil {
		return
	}
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			w.stmts(n.Stmts)
			return false
		case *syntax.ProcSubst:
			w.stmts(n.Stmts)
			return false
		}
		return true
	})
}

// word walks the substitutions of a word that may be absent.
func (w *walker) word(word *syntax.Word) {
	if word != nil {
		w.substs(word)
	}
}

// assign records a variable assigned a value known from the script.
func (w *walker) assign(a *syntax.Assign) {
	w.assignScripts(a)
	if a.Array != nil {
		w.substs(a.Array)
	}
	if a.Name == nil || a.Index != nil || a.Array != nil || a.Naked {
		return
	}
	if a.Value == nil {
		w.vars[a.Name.Value] = ""
		return
	}
	words := w.words(a.Value)
	if a.Append {
		w.vars[a.Name.Value] += strings.Join(words, " ")
	} else {
		w.vars[a.Name.Value] = strings.Join(words, " ")
	}
}

// call records a simple command and follows what it runs in turn.
func (w *walker) call(c *syntax.CallExpr, s *syntax.Stmt, piped bool) {
	for _, word := range c.Args {
		w.word(word)
	}
	if len(c.Args) == 0 {
		for _, a := range c.Assigns {
			w.assign(a)
		}
		return
	}
	for _, a := range c.Assigns {
		w.assignScripts(a)
		if a.Array != nil {
			w.substs(a.Array)
		}
	}
	var words []Word
	for _, word := range c.Args {
		words = append(words, w.expand(word)...)
	}
	cmd := Command{Args: texts(words), Opaque: opacity(words), Dir: w.dir, Func: w.fn, Piped: piped, Background: s.Background, Depth: w.depth}
	for _, r := range s.Redirs {
		rd := Redirect{Op: r.Op.String()}
		if r.Word != nil {
			rd.Target = strings.Join(w.words(r.Word), " ")
		}
		cmd.Redirs = append(cmd.Redirs, rd)
	}
	w.out = append(w.out, cmd)
	w.follow(cmd, s)
}

// assignScripts walks the substitutions of an assignment's value and
// what setting the variable may run (see varScripts).
func (w *walker) assignScripts(a *syntax.Assign) {
	w.word(a.Value)
	if a.Index != nil {
		w.substs(a.Index) // a[$(cmd)]=1 runs cmd
	}
	if a.Name == nil {
		return
	}
	value := joined(w.expand(a.Value))
	for _, v := range varScripts(a.Name.Value, value) {
		w.nestedValue(v)
	}
}

// timeProgram is what a time clause runs. bash's keyword takes only -p
// and then one "--" (time -- cmd runs cmd, and so does dash's time
// program, for which -- ends its options); with another option first
// (time -v cmd) bash runs that word, but a shell without the keyword
// (dash) runs the time program with the option, and so the command after
// it: read as the program, time.
func timeProgram(c *syntax.TimeClause) *syntax.Stmt {
	if c.Stmt == nil {
		return nil // time alone times nothing
	}
	call, ok := c.Stmt.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 {
		return c.Stmt
	}
	stmt := *c.Stmt
	switch first := call.Args[0].Lit(); {
	case first == "--":
		stmt.Cmd = &syntax.CallExpr{Assigns: call.Assigns, Args: call.Args[1:]}
	case strings.HasPrefix(first, "-"):
		program := &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: "time"}}}
		stmt.Cmd = &syntax.CallExpr{Assigns: call.Assigns, Args: append([]*syntax.Word{program}, call.Args...)}
	default:
		return c.Stmt
	}
	return &stmt
}
