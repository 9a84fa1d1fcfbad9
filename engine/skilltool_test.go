package engine

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/skills"
)

// personalSkill writes a skill into a home folder's ~/.claude/skills,
// outside every workspace, and returns the loaded catalogue and the
// skill's folder.
func personalSkill(t *testing.T, name, header, body string) (*skills.Catalog, string) {
	t.Helper()
	home := t.TempDir()
	dir := filepath.Join(home, ".claude", "skills", name)
	writeFile(t, dir, "SKILL.md", "---\nname: "+name+"\n"+header+"---\n"+body+"\n")
	writeFile(t, dir, "reference.md", "the reference says: use tabs\n")
	c := skills.Load(skills.Options{HomeDir: home})
	if len(c.All()) != 1 {
		t.Fatalf("skills %v, broken %v", c.All(), c.Broken())
	}
	real, _ := filepath.EvalSymlinks(dir)
	return c, real
}

// TestSkillLoadsAndNarrows: the model sees the skill listed, loads it,
// reads its folder (outside the workspace) with read_file, and while it
// is active a command the person's rules allow must ask, which headless
// cannot; a link in the folder that leads out of it is refused; the
// next turn, the skill no longer narrows.
func TestSkillLoadsAndNarrows(t *testing.T) {
	catalog, dir := personalSkill(t, "style", "description: house style for Go files\nallowed-tools: Read, Grep\n", "Read reference.md, then fix the style.")
	secret := filepath.Join(t.TempDir(), "secret.txt")
	writeFile(t, filepath.Dir(secret), "secret.txt", "TOP SECRET")
	if err := os.Symlink(secret, filepath.Join(dir, "escape.md")); err != nil {
		t.Fatal(err)
	}
	firstTurn := stepScript(
		llmtest.Call{Name: "skill", Args: `{"skill":"style"}`},
		llmtest.Call{Name: "read_file", Args: `{"path":"` + filepath.Join(dir, "reference.md") + `"}`},
		llmtest.Call{Name: "read_file", Args: `{"path":"` + filepath.Join(dir, "escape.md") + `"}`},
		command("echo narrowed"),
		llmtest.Call{Name: "skill", Args: `{"skill":"style"}`},
	)
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		msgs := r.Body.Messages
		switch {
		case r.LastUser() != "and now":
			firstTurn(r, w)
		case msgs[len(msgs)-1].Role == "user":
			w.ToolCalls(llmtest.Call{ID: "again", Name: "run_command", Args: `{"command":"echo not narrowed"}`})
		default:
			w.Text("finished")
		}
	}, func(c *Config) {
		c.Skills, c.Mode, c.Allow = catalog, permission.Headless, []string{"run_command"}
	})
	runTurn(t, s, "fix the style", nil)
	reqs := srv.Requests()
	contains(t, "system prompt", reqs[0].System(), "- style: house style for Go files")
	if !slices.Contains(reqs[0].ToolNames(), "skill") {
		t.Fatalf("tools %v", reqs[0].ToolNames())
	}
	results := toolMessages(reqs[len(reqs)-1])
	contains(t, "skill result", results[0], "Base directory for this skill: "+dir)
	contains(t, "skill result", results[0], "Read reference.md, then fix the style.")
	contains(t, "reference read", results[1], "the reference says: use tabs")
	contains(t, "escape read", results[2], "leads outside")
	if strings.Contains(results[2], "TOP SECRET") {
		t.Fatal("a link in the skill's folder read a file outside it")
	}
	contains(t, "narrowed command", results[3], "not among the tools the active skill style lets run without asking")
	contains(t, "loading a skill while one is active", results[4], "Read reference.md, then fix the style.")

	// The skill's turn is over: the person's rule applies alone again.
	runTurn(t, s, "and now", nil)
	reqs = srv.Requests()
	last := toolMessages(reqs[len(reqs)-1])
	contains(t, "command next turn", last[len(last)-1], "not narrowed")
	if strings.Contains(last[len(last)-1], "Error") {
		t.Errorf("next turn: %q", last[len(last)-1])
	}
	if st := s.SkillStatus(); len(st) != 1 || st[0].Loads != 2 || st[0].Source != "~/.claude/skills" {
		t.Errorf("status %+v", st)
	}
}

// TestSkillFolderIsNotReadableBeforeLoading: a skill's folder outside
// the workspace is closed to the file tools until the skill is loaded,
// and an unknown skill name lists the known ones.
func TestSkillFolderIsNotReadableBeforeLoading(t *testing.T) {
	catalog, dir := personalSkill(t, "style", "description: house style\n", "Body.")
	s, srv := newTestSession(t, stepScript(
		llmtest.Call{Name: "read_file", Args: `{"path":"` + filepath.Join(dir, "reference.md") + `"}`},
		llmtest.Call{Name: "skill", Args: `{"skill":"nope"}`},
	), func(c *Config) { c.Skills = catalog })
	runTurn(t, s, "go", nil)
	results := toolMessages(srv.Requests()[2])
	contains(t, "read before loading", results[0], "outside the workspace")
	contains(t, "unknown skill", results[1], `no skill "nope"; yours are: style`)
}
