package skills

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Frontmatter fields of the wrong kind cost only that field, with a
// warning naming it; a name no tool call could carry skips the skill.
func TestFieldsOfTheWrongKindAreWarnings(t *testing.T) {
	s, warns, err := Parse("SKILL.md", "tables", []byte("---\nname: tables\ndescription: [a, list]\ndisable-model-invocation: sometimes\n"+
		"allowed-tools:\n  - Read\n  - 42\n  - Bash()\n  - (x)\n---\n# Extract tables\n\nfrom PDFs"))
	if err != nil {
		t.Fatal(err)
	}
	var text []string
	for _, w := range warns {
		text = append(text, w.Message)
	}
	got := strings.Join(text, "\n")
	for _, want := range []string{"description must be text; ignored", "disable-model-invocation must be true or false; ignored",
		"allowed-tools: ignored an entry that is not text", `allowed-tools: ignored "Bash()": rule "run_command()": the pattern is empty`, `allowed-tools: ignored "(x)": no baton tool for`, "no description: using the first line"} {
		if !strings.Contains(got, want) {
			t.Errorf("warnings %q lack %q", got, want)
		}
	}
	if !s.ModelInvocable || s.Description != "Extract tables" || len(s.Allowed) != 1 {
		t.Errorf("skill %+v", s)
	}
	if _, _, err := Parse("SKILL.md", "x", []byte("---\nname: t\nallowed-tools: {read: yes}\n---\nbody")); err != nil {
		t.Errorf("allowed-tools as a map: %v", err)
	}
	for folder, want := range map[string]string{
		"!!!":                    "has characters other than letters",
		"---":                    "has no letters or digits",
		strings.Repeat("n", 100): "is longer than",
	} {
		if _, _, err := Parse("SKILL.md", folder, []byte("---\ndescription: d\n---\nbody")); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("folder %q: %v, want %q", folder, err, want)
		}
	}
	long, warns, _ := Parse("SKILL.md", "long", []byte("---\ndescription: "+strings.Repeat("word ", 400)+"\n---\n"+strings.Repeat("y", 300)))
	if !strings.HasSuffix(long.Description, "…") || len(warns) != 1 || !strings.Contains(warns[0].Message, "description is longer than") {
		t.Errorf("a long description %q, %v", long.Description[len(long.Description)-10:], warns)
	}
}

// A skills folder that is not a folder (a file, a FIFO that would block
// an open) is a warning and nothing hangs; a project that is the home
// folder is read once.
func TestSkillsFoldersThatAreNoFolders(t *testing.T) {
	project := t.TempDir()
	if err := os.MkdirAll(filepath.Join(project, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(project, ".claude", "skills"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(project, ".agents"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, ".agents", "skills"), []byte("not a folder"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeSkill(t, filepath.Join(project, ".baton", "skills", "deploy"), "deploy", "ships it")
	c := Load(Options{ProjectDir: project, HomeDir: project})
	var notDirs int
	for _, w := range c.Warnings() {
		if strings.Contains(w.Message, "read skills folder: not a directory") {
			notDirs++
		}
		if strings.Contains(w.Message, "takes precedence") {
			t.Errorf("a project that is the home folder was read twice: %v", w)
		}
	}
	if notDirs != 2 || len(c.All()) != 1 {
		t.Errorf("%d warnings of folders that are none, %d skills; warnings %v", notDirs, len(c.All()), c.Warnings())
	}
}

// A skill's instructions are read again when the model loads it, through
// the same checks: a SKILL.md swapped for a FIFO or emptied of its
// frontmatter since the start is an error, never a hang.
func TestBodyIsReadAgainThroughTheChecks(t *testing.T) {
	project := t.TempDir()
	dir := filepath.Join(project, ".claude", "skills", "deploy")
	writeSkill(t, dir, "deploy", "ships it")
	c := Load(Options{ProjectDir: project})
	s, ok := c.Lookup("deploy")
	if !ok {
		t.Fatal("deploy did not load")
	}
	if body, err := s.Body(); err != nil || body != "Do it." {
		t.Fatalf("body %q, %v", body, err)
	}
	// Through JSON (a child process) the skill keeps its checks.
	data, _ := json.Marshal(s)
	var again Skill
	if err := json.Unmarshal(data, &again); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(`{"name": 5}`), &again); err == nil {
		t.Error("a skill with a number for a name was read")
	}
	file := filepath.Join(dir, "SKILL.md")
	if err := os.WriteFile(file, []byte("---\nname: deploy\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Body(); err == nil || !strings.HasPrefix(err.Error(), "skill deploy: ") {
		t.Errorf("a SKILL.md without its frontmatter's end: %v", err)
	}
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(file, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Body(); err == nil || !strings.Contains(err.Error(), "skill deploy: skipped: ") {
		t.Errorf("a SKILL.md swapped for a FIFO: %v", err)
	}
}
