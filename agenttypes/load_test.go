package agenttypes

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// tree is a home, a baton config folder and a project in one temp dir.
type tree struct{ home, config, project string }

func newTree(t *testing.T) tree {
	root := t.TempDir()
	return tree{filepath.Join(root, "home"), filepath.Join(root, "config", "baton"), filepath.Join(root, "project")}
}

func (tr tree) options() LoadOptions {
	return LoadOptions{ProjectDir: tr.project, UserConfigDir: tr.config, HomeDir: tr.home}
}

// folder returns the agent folder called key, from lowest precedence up.
func (tr tree) folder(key string) string {
	return map[string]string{
		"home":            filepath.Join(tr.home, ".claude", "agents"),
		"config":          filepath.Join(tr.config, "agents"),
		"project-claude":  filepath.Join(tr.project, ".claude", "agents"),
		"opencode-agent":  filepath.Join(tr.project, ".opencode", "agent"),
		"opencode-agents": filepath.Join(tr.project, ".opencode", "agents"),
		"baton":           filepath.Join(tr.project, ".baton", "agents"),
	}[key]
}

func writeFile(t *testing.T, path, content string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadPrecedence(t *testing.T) {
	tests := []struct {
		folders []string // in precedence order
	}{
		{[]string{"home", "config"}},
		{[]string{"home", "project-claude"}},
		{[]string{"config", "project-claude"}},
		{[]string{"project-claude", "opencode-agent", "opencode-agents"}},
		{[]string{"opencode-agents", "baton"}},
		{[]string{"home", "config", "project-claude", "opencode-agent", "opencode-agents", "baton"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.folders, "<"), func(t *testing.T) {
			tr := newTree(t)
			var paths []string
			for _, f := range tt.folders {
				paths = append(paths, writeFile(t, filepath.Join(tr.folder(f), "helper.md"),
					"---\ndescription: from "+f+"\n---\nPrompt.\n"))
			}
			r := Load(tr.options())
			got, ok := r.Lookup("helper")
			winner := tt.folders[len(tt.folders)-1]
			if !ok || got.Description != "from "+winner || got.Source != paths[len(paths)-1] {
				t.Fatalf("Lookup(helper) = %q from %q, want the one from %s", got.Description, got.Source, winner)
			}
			warns := r.Warnings()
			if len(warns) != len(paths)-1 {
				t.Fatalf("warnings = %v, want one per override", warns)
			}
			for i, w := range warns {
				want := `agent "helper" here takes precedence over the one in ` + paths[i]
				if w.File != paths[i+1] || w.Message != want {
					t.Errorf("warning %d = %v, want %s: %s", i, w, paths[i+1], want)
				}
			}
		})
	}
}

func TestLoadSamples(t *testing.T) {
	tr := newTree(t)
	dir := tr.folder("project-claude")
	for _, pattern := range []string{"claude/*.md", "broken/*.md"} {
		paths, err := filepath.Glob(filepath.Join(samples, pattern))
		if err != nil || len(paths) == 0 {
			t.Fatalf("glob %s: %v", pattern, err)
		}
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(dir, filepath.Base(p)), string(data))
		}
	}
	writeFile(t, filepath.Join(dir, "notes.txt"), "not an agent")
	writeFile(t, filepath.Join(dir, "nested", "inner.md"), "---\ndescription: d\n---\nx\n")

	r := Load(tr.options())
	var names []string
	for _, ty := range r.All() {
		names = append(names, ty.Name)
	}
	want := []string{"explore", "plan", "review", "test", "general-purpose",
		"bad-fields", "bad-name", "bad-yaml", "code-reviewer", "debugger", "docs-fetcher", "nested/inner", "orchestrator", "test-runner"}
	if !slices.Equal(names, want) {
		t.Errorf("All() = %q, want %q", names, want)
	}
	var skipped []string
	for _, w := range r.Warnings() {
		if strings.Contains(w.Message, "skipped:") {
			skipped = append(skipped, filepath.Base(w.File))
		}
		if filepath.Dir(w.File) != dir {
			t.Errorf("warning %v does not name a file in %s", w, dir)
		}
	}
	wantSkipped := []string{"no-description.md", "no-frontmatter.md", "unclosed.md"}
	if !slices.Equal(skipped, wantSkipped) {
		t.Errorf("skipped %q, want %q", skipped, wantSkipped)
	}
}

func TestLoadOverridesBuiltins(t *testing.T) {
	tr := newTree(t)
	review := writeFile(t, filepath.Join(tr.folder("baton"), "review.md"), "---\ndescription: house review\n---\nReview our way.\n")
	writeFile(t, filepath.Join(tr.folder("config"), "gp.md"), "---\nname: General_Purpose\ndescription: off\ndisable: true\n---\nx\n")
	r := Load(tr.options())
	if got, ok := r.Lookup("review"); !ok || got.Source != review || got.SystemPrompt != "Review our way." {
		t.Errorf("Lookup(review) = %+v, want the file", got)
	}
	if _, ok := r.Lookup("general-purpose"); ok {
		t.Error("a disabled file did not switch general-purpose off")
	}
	if want := []string{"explore", "plan", "review", "test"}; !slices.Equal(r.Names(), want) {
		t.Errorf("Names() = %q, want %q", r.Names(), want)
	}
	if w := r.Warnings(); len(w) != 0 {
		t.Errorf("Warnings() = %v, want none for overriding built-ins", w)
	}
}

func TestLoadSkippedFileKeepsLowerDefinition(t *testing.T) {
	tr := newTree(t)
	user := writeFile(t, filepath.Join(tr.folder("config"), "helper.md"), "---\ndescription: user helper\n---\nx\n")
	bad := writeFile(t, filepath.Join(tr.folder("baton"), "helper.md"), "---\ndescription: \"a\n---\nx\n")
	r := Load(tr.options())
	if got, ok := r.Lookup("helper"); !ok || got.Source != user {
		t.Errorf("Lookup(helper) = %+v, want the user's file", got)
	}
	if w := r.Warnings(); len(w) != 1 || w[0].File != bad || w[0].Line != 3 {
		t.Errorf("Warnings() = %v, want the bad YAML at %s:3", w, bad)
	}
}

// TestLoadRefusesADeeplyNestedHeader: a repository's agent file whose
// frontmatter nests past the bound (flow lists here) is skipped with a
// warning pointing at the line, before the YAML reader parses it.
func TestLoadRefusesADeeplyNestedHeader(t *testing.T) {
	tr := newTree(t)
	deep := "---\ndescription: d\ntools: " + strings.Repeat("[", 2000) + strings.Repeat("]", 2000) + "\n---\nx\n"
	bad := writeFile(t, filepath.Join(tr.folder("baton"), "deep.md"), deep)
	r := Load(tr.options())
	if _, ok := r.Lookup("deep"); ok {
		t.Error("the deeply nested agent file was loaded")
	}
	want := "skipped: the frontmatter is nested deeper than 16 levels"
	if w := r.Warnings(); len(w) != 1 || w[0].File != bad || w[0].Line != 3 || w[0].Message != want {
		t.Errorf("Warnings() = %v, want %q at %s:3", w, want, bad)
	}
}

func TestLoadKnownTools(t *testing.T) {
	tr := newTree(t)
	writeFile(t, filepath.Join(tr.folder("baton"), "web.md"), "---\ndescription: d\ntools: Read, WEB_FETCH, Bash\n---\nx\n")
	writeFile(t, filepath.Join(tr.folder("baton"), "all.md"), "---\ndescription: d\n---\nx\n")
	opts := tr.options()
	opts.KnownTools = []string{"read_file", "grep", "web_fetch", "task"}
	r := Load(opts)
	web, _ := r.Lookup("web")
	if !slices.Equal(web.Tools, []string{"read_file", "web_fetch"}) || !slices.Equal(web.DroppedTools, []string{"Bash"}) {
		t.Errorf("web tools = %q, dropped %q", web.Tools, web.DroppedTools)
	}
	all, _ := r.Lookup("all")
	if !slices.Equal(all.Tools, []string{"read_file", "grep"}) {
		t.Errorf("default tools = %q, want the base tools the program has", all.Tools)
	}
}

func TestLoadProjectIsHome(t *testing.T) {
	tr := newTree(t)
	writeFile(t, filepath.Join(tr.folder("home"), "helper.md"), "---\ndescription: d\n---\nx\n")
	opts := tr.options()
	opts.ProjectDir = tr.home + string(filepath.Separator)
	if w := Load(opts).Warnings(); len(w) != 0 {
		t.Errorf("Warnings() = %v, want none when one folder is both user and project", w)
	}
}

func TestLoadUnreadable(t *testing.T) {
	tr := newTree(t)
	notDir := writeFile(t, tr.folder("baton"), "a file where the folder should be")
	big := writeFile(t, filepath.Join(tr.folder("config"), "big.md"), "---\ndescription: d\n---\n"+strings.Repeat("x", maxFileSize))
	w := Load(tr.options()).Warnings()
	if len(w) != 2 || w[0].File != big || !strings.Contains(w[0].Message, "skipped: larger than 1024 KiB") ||
		w[1].File != notDir || !strings.HasPrefix(w[1].Message, "read agent folder: ") {
		t.Errorf("Warnings() = %v, want the large file then the folder", w)
	}
}

func TestLoadNothing(t *testing.T) {
	r := Load(LoadOptions{})
	if len(r.All()) != len(Builtins()) || len(r.Warnings()) != 0 {
		t.Errorf("Load with no folders = %d types, %v", len(r.All()), r.Warnings())
	}
}
