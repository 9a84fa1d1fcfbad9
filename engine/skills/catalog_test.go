package skills

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestNamedAndNilCatalog: Named finds skills in the order asked, any
// case, and names those missing; a catalog that never loaded answers
// every question with nothing rather than a panic.
func TestNamedAndNilCatalog(t *testing.T) {
	project, home := t.TempDir(), t.TempDir()
	writeSkill(t, filepath.Join(project, ".claude/skills/deploy"), "deploy", "ship it")
	writeSkill(t, filepath.Join(home, ".claude/skills/lint"), "lint", "tidy it")
	c := Load(Options{ProjectDir: project, HomeDir: home})
	found, missing := c.Named([]string{"LINT", "nope", " deploy "})
	if !slices.Equal(names(found), []string{"lint", "deploy"}) || !slices.Equal(missing, []string{"nope"}) {
		t.Fatalf("found %v, missing %v", names(found), missing)
	}
	if len(c.Warnings()) != 0 || len(c.Broken()) != 0 {
		t.Fatalf("warnings %v, broken %v", c.Warnings(), c.Broken())
	}
	var none *Catalog
	if none.All() != nil || none.Broken() != nil || none.Warnings() != nil || none.Hidden() != nil || none.Offered() != nil {
		t.Fatal("a nil catalog listed something")
	}
	if _, ok := none.Lookup("deploy"); ok {
		t.Fatal("a nil catalog found a skill")
	}
}

// TestNamesIsBounded: the names an error gives the model stop at
// ListingChars and say how many more there are.
func TestNamesIsBounded(t *testing.T) {
	if got := Names([]Skill{{Name: "a"}, {Name: "b"}}); got != "a, b" {
		t.Fatalf("Names = %q", got)
	}
	var list []Skill
	for range 1000 {
		list = append(list, Skill{Name: strings.Repeat("n", 40)})
	}
	got := Names(list)
	if len(got) > ListingChars+40 || !strings.HasSuffix(got, " more") {
		t.Fatalf("Names of 1000 is %d characters, ending %q", len(got), got[len(got)-20:])
	}
}
