package skills

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/rules"
)

// real is the folder of skills copied unmodified from npm packages (see
// testdata/real/README.md).
const real = "testdata/real"

// copyTree copies the folder src to dst, keeping file modes.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, _ := d.Info()
		return os.WriteFile(target, data, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}

// realProject lays the real skills out as a project and a home folder
// would hold them: the plaited and videodb skills in .claude/skills, the
// broken translations in .baton/skills, and ECC's own .agents/skills.
func realProject(t *testing.T) (project, home string) {
	t.Helper()
	project, home = t.TempDir(), t.TempDir()
	plaited := filepath.Join(real, "@plaited/development-skills@0.8.1/skills")
	ecc := filepath.Join(real, "ecc-universal@2.0.0")
	copyTree(t, filepath.Join(plaited, "typescript-lsp"), filepath.Join(project, ".claude/skills/typescript-lsp"))
	copyTree(t, filepath.Join(plaited, "code-documentation"), filepath.Join(home, ".claude/skills/code-documentation"))
	copyTree(t, filepath.Join(ecc, "skills/videodb"), filepath.Join(project, ".claude/skills/videodb"))
	copyTree(t, filepath.Join(ecc, ".agents"), filepath.Join(project, ".agents"))
	copyTree(t, filepath.Join(ecc, "docs/ja-JP/skills/swiftui-patterns"), filepath.Join(project, ".baton/skills/swiftui-patterns"))
	copyTree(t, filepath.Join(ecc, "docs/zh-TW/skills/verification-loop"), filepath.Join(project, ".baton/skills/verification-loop"))
	return project, home
}

func names(list []Skill) []string {
	var out []string
	for _, s := range list {
		out = append(out, s.Name)
	}
	return out
}

// TestRealSkills loads skills as published: every usable one with its
// allowed-tools read in each spelling authors use, and the two broken
// ones named with their file, never stopping the rest.
func TestRealSkills(t *testing.T) {
	project, home := realProject(t)
	c := Load(Options{ProjectDir: project, HomeDir: home})
	if got, want := names(c.All()), []string{"code-documentation", "mle-workflow", "typescript-lsp", "videodb"}; !slices.Equal(got, want) {
		t.Fatalf("skills %q, want %q; broken %v", got, want, c.Broken())
	}
	allowed := map[string]string{}
	for _, s := range c.All() {
		allowed[s.Name] = strings.Join(rules.Strings(s.Allowed), " ")
		if s.Allowed == nil {
			allowed[s.Name] = "(none)"
		}
	}
	want := map[string]string{
		"typescript-lsp":     "run_command",
		"videodb":            "read_file grep find_files run_command(python:*)",
		"mle-workflow":       "read_file write_file edit_file run_command grep find_files",
		"code-documentation": "(none)",
	}
	for name, w := range want {
		if allowed[name] != w {
			t.Errorf("%s allows %q, want %q", name, allowed[name], w)
		}
	}
	video, _ := c.Lookup("videodb")
	if !video.Project || video.Source != ".claude/skills" || !strings.HasPrefix(video.Description, "See, Understand, Act on video") {
		t.Errorf("videodb: %+v", video)
	}
	body, err := video.Body()
	if err != nil || !strings.HasPrefix(body, "# VideoDB Skill") || strings.Contains(body, "allowed-tools") {
		t.Errorf("videodb body %q…, %v", body[:min(len(body), 40)], err)
	}
	docs, _ := c.Lookup("code-documentation")
	if docs.Project || docs.Source != "~/.claude/skills" || docs.Dir == "" {
		t.Errorf("code-documentation: %+v", docs)
	}
	var broken []string
	for _, w := range c.Broken() {
		broken = append(broken, w.String())
	}
	text := strings.Join(broken, "\n")
	for _, want := range []string{"swiftui-patterns/SKILL.md:3: skipped: bad YAML", "verification-loop/SKILL.md:1: skipped: no frontmatter"} {
		if !strings.Contains(text, want) {
			t.Errorf("broken skills %q lack %q", text, want)
		}
	}
}

// TestParseLeniently reads headers the way Claude Code tolerates them.
func TestParseLeniently(t *testing.T) {
	cases := []struct {
		name, file  string
		wantName    string
		wantDesc    string
		wantAllowed string
		wantDropped string
		wantOffered bool
		wantWarning string
		wantSkipped string
	}{
		{name: "a name with spaces falls back to the folder", file: "---\nname: My First Skill\ndescription: does things\n---\nbody",
			wantName: "first", wantDesc: "does things", wantAllowed: "(none)", wantOffered: true, wantWarning: "named \"first\" after its folder"},
		{name: "an unquoted colon in the description", file: "---\nname: pdf\ndescription: Use when: the person sends a PDF\n---\nbody",
			wantName: "pdf", wantDesc: "Use when: the person sends a PDF", wantAllowed: "(none)", wantOffered: true},
		{name: "no description takes the first line", file: "---\nname: x\n---\n# Extract tables\nmore",
			wantName: "x", wantDesc: "Extract tables", wantAllowed: "(none)", wantOffered: true, wantWarning: "no description"},
		{name: "a list, a tool baton lacks and model invocation off", file: "---\nname: y\ndescription: d\nallowed-tools:\n  - Read\n  - WebSearch\n  - Bash(git diff *)\ndisable-model-invocation: true\n---\nbody",
			wantName: "y", wantDesc: "d", wantAllowed: "read_file run_command(git diff:*)", wantDropped: "WebSearch", wantOffered: false},
		{name: "nothing after the frontmatter", file: "---\nname: z\ndescription: d\n---\n\n", wantSkipped: "no instructions"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, warns, err := Parse("SKILL.md", "first", []byte(tc.file))
			if tc.wantSkipped != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantSkipped) {
					t.Fatalf("err %v, want %q", err, tc.wantSkipped)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			allowed := strings.Join(rules.Strings(s.Allowed), " ")
			if s.Allowed == nil {
				allowed = "(none)"
			}
			if s.Name != tc.wantName || s.Description != tc.wantDesc || allowed != tc.wantAllowed ||
				strings.Join(s.Dropped, " ") != tc.wantDropped || s.ModelInvocable != tc.wantOffered {
				t.Errorf("got %q %q allowed %q dropped %q offered %v", s.Name, s.Description, allowed, s.Dropped, s.ModelInvocable)
			}
			var text []string
			for _, w := range warns {
				text = append(text, w.String())
			}
			if got := strings.Join(text, "\n"); (tc.wantWarning == "") != (got == "") || !strings.Contains(got, tc.wantWarning) {
				t.Errorf("warnings %q, want %q", got, tc.wantWarning)
			}
		})
	}
}

// writeSkill writes dir/SKILL.md.
func writeSkill(t *testing.T, dir, name, desc string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: "+name+"\ndescription: "+desc+"\n---\nDo it.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPersonalSkillWins: a repository's skill never replaces the
// person's own of the same name; /skills can say which is hidden.
func TestPersonalSkillWins(t *testing.T) {
	project, home := t.TempDir(), t.TempDir()
	writeSkill(t, filepath.Join(project, ".claude/skills/deploy"), "deploy", "the repository's")
	writeSkill(t, filepath.Join(home, ".claude/skills/deploy"), "deploy", "mine")
	c := Load(Options{ProjectDir: project, HomeDir: home})
	s, _ := c.Lookup("deploy")
	if s.Description != "mine" || len(c.Hidden()) != 1 || c.Hidden()[0].Description != "the repository's" {
		t.Fatalf("deploy is %q, hidden %v", s.Description, c.Hidden())
	}
}

// TestHostileProjectSkills performs a repository's attacks on the
// loader: a skill folder linked out of the workspace, a SKILL.md that is
// a FIFO (opening it would block the start) and one larger than the cap.
// Each is named broken; nothing outside is read and nothing hangs.
func TestHostileProjectSkills(t *testing.T) {
	project, outside := t.TempDir(), t.TempDir()
	writeSkill(t, filepath.Join(outside, "secret"), "secret", "outside the workspace")
	skillsDir := filepath.Join(project, ".claude/skills")
	if err := os.MkdirAll(filepath.Join(skillsDir, "fifo"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret"), filepath.Join(skillsDir, "secret")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(skillsDir, "fifo", "SKILL.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeSkill(t, filepath.Join(skillsDir, "huge"), "huge", strings.Repeat("x", maxSkillBytes))
	c := Load(Options{ProjectDir: project})
	if len(c.All()) != 0 {
		t.Fatalf("loaded %q", names(c.All()))
	}
	var text []string
	for _, w := range c.Broken() {
		text = append(text, w.String())
	}
	got := strings.Join(text, "\n")
	for _, want := range []string{"resolves outside the workspace", "named pipe", "larger than"} {
		if !strings.Contains(got, want) {
			t.Errorf("broken %q lacks %q", got, want)
		}
	}
}

// TestHomeIsNeverGranted: a personal skill folder linked to the home
// folder itself loads, but loading it does not open the home folder to
// the file tools.
func TestHomeIsNeverGranted(t *testing.T) {
	home := t.TempDir()
	writeSkill(t, home, "everything", "a skill at the top of home")
	if err := os.MkdirAll(filepath.Join(home, ".claude/skills"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(home, filepath.Join(home, ".claude/skills/everything")); err != nil {
		t.Fatal(err)
	}
	c := Load(Options{HomeDir: home})
	s, ok := c.Lookup("everything")
	if !ok || s.Dir != "" {
		t.Fatalf("skill %+v loaded %v: its folder must not be granted", s, ok)
	}
}

// TestListingIsBounded: many skills with long descriptions fill at most
// ListingChars, and the list says how many it left out and how to reach
// them.
func TestListingIsBounded(t *testing.T) {
	var list []Skill
	for i := range 200 {
		list = append(list, Skill{Name: strings.Repeat("s", 10) + string(rune('a'+i%26)) + strings.Repeat("x", i%7), Description: strings.Repeat("long words ", 60)})
	}
	text := Listing(list)
	if len(text) > ListingChars+300 {
		t.Errorf("listing is %d characters", len(text))
	}
	if !strings.Contains(text, "more skills are not listed") || !strings.Contains(text, "returns every name") {
		t.Errorf("listing tail %q", text[len(text)-200:])
	}
	if Listing(nil) != "" {
		t.Error("a listing without skills")
	}
}

// TestForTools offers a child only the skills its tools can use.
func TestForTools(t *testing.T) {
	project, home := realProject(t)
	c := Load(Options{ProjectDir: project, HomeDir: home})
	readOnly := []string{"read_file", "grep", "find_files", "list_files"}
	if got := names(c.ForTools(readOnly)); !slices.Equal(got, []string{"code-documentation"}) {
		t.Errorf("a reader is offered %q", got)
	}
	if got := names(c.ForTools(append(readOnly, "run_command"))); !slices.Equal(got, []string{"code-documentation", "typescript-lsp", "videodb"}) {
		t.Errorf("a reader with commands is offered %q", got)
	}
}
