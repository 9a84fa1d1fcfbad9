package command

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// The package does nothing as the program starts (no init functions,
// none of the package-level maps or calls that compile into one): the
// commands are gathered on first use. And every command a file declares
// (a func NAMECommand() Command) is among them.
func TestCommandsAreGatheredOnFirstUseOnly(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	declared := map[string]bool{}
	var gathered string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.Name == "init" {
					t.Errorf("%s has an init function", fset.Position(d.Pos()))
				}
				if d.Recv == nil && strings.HasSuffix(d.Name.Name, "Command") && d.Type.Results != nil &&
					len(d.Type.Results.List) == 1 && types(d.Type.Results.List[0].Type) == "Command" {
					declared[d.Name.Name] = true
				}
				if d.Name.Name == "builtinCommands" {
					ast.Inspect(d.Body, func(n ast.Node) bool {
						if c, ok := n.(*ast.CallExpr); ok {
							if id, ok := c.Fun.(*ast.Ident); ok {
								gathered += " " + id.Name + " "
							}
						}
						return true
					})
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					if v, ok := spec.(*ast.ValueSpec); ok {
						for _, value := range v.Values {
							if startsWork(value) {
								t.Errorf("%s: a package-level value built as the program starts", fset.Position(value.Pos()))
							}
						}
					}
				}
			}
		}
	}
	if len(declared) < len(order) {
		t.Fatalf("found %d command declarations, fewer than the help order's %d", len(declared), len(order))
	}
	for name := range declared {
		if !strings.Contains(gathered, " "+name+" ") {
			t.Errorf("%s is declared but not gathered in builtinCommands", name)
		}
	}
}

// types is the name of a simple type expression.
func types(e ast.Expr) string {
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// startsWork reports whether a package-level value's expression runs
// code as the program starts: a call, or a map literal.
func startsWork(e ast.Expr) bool {
	work := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			work = true
		case *ast.CompositeLit:
			if _, ok := n.Type.(*ast.MapType); ok {
				work = true
			}
		}
		return !work
	})
	return work
}
