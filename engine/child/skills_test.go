package child_test

import (
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/sessiontest"
	"github.com/seed-e4e525a6/baton/engine/skills"
)

// TestChildSkills: an agent file's skills: gives its child those skills
// loaded from the start; a child without the field is offered the skills
// its tools can use, and not one that needs a tool it lacks.
func TestChildSkills(t *testing.T) {
	home := t.TempDir()
	sessiontest.WriteFile(t, filepath.Join(home, ".claude/skills/review-go"), "SKILL.md", "---\nname: review-go\ndescription: reviews Go\n---\nCheck error wrapping.\n")
	sessiontest.WriteFile(t, filepath.Join(home, ".claude/skills/deploy"), "SKILL.md", "---\nname: deploy\ndescription: ships it\nallowed-tools: Bash(make deploy)\n---\nRun make deploy.\n")
	catalog := skills.Load(skills.Options{HomeDir: home})
	reviewer := agenttypes.Type{Name: "go-reviewer", DisplayName: "Go Reviewer", Description: "reviews", SystemPrompt: "You review.",
		Tools: []string{"read_file", "grep"}, Model: agenttypes.InheritModel, Skills: []string{"review-go"}}
	systems := map[string]string{}
	tools := map[string][]string{}
	var mu sync.Mutex // the two children's requests arrive together
	s, _ := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case sessiontest.IsChild(r):
			mu.Lock()
			systems[r.Body.Messages[1].Content], tools[r.Body.Messages[1].Content] = r.System(), r.ToolNames()
			mu.Unlock()
			w.Text("ok")
		case len(sessiontest.ToolMessages(r)) == 0:
			w.ToolCalls(sessiontest.TaskCall("t1", "go-reviewer", "review", "Review it."), sessiontest.TaskCall("t2", "explore", "look", "Look around."))
		default:
			w.Text("done")
		}
	}, func(c *engine.Config) { withTypes(reviewer)(c); c.Skills = catalog })
	log := sessiontest.RunTurn(t, s, "go", nil)
	if len(sessiontest.Of[event.AgentFinished](log)) != 2 {
		t.Fatal("the children did not both finish")
	}
	sessiontest.Contains(t, "reviewer's system prompt", systems["Review it."], "# Skill review-go (loaded)")
	sessiontest.Contains(t, "reviewer's system prompt", systems["Review it."], "Check error wrapping.")
	if strings.Contains(systems["Review it."], "ships it") {
		t.Error("the reviewer is offered a skill its file does not name")
	}
	sessiontest.Contains(t, "explorer's system prompt", systems["Look around."], "- review-go: reviews Go")
	if strings.Contains(systems["Look around."], "deploy") {
		t.Error("a reader is offered a skill that runs commands")
	}
	if !slices.Contains(tools["Look around."], "skill") {
		t.Errorf("explorer's tools %v", tools["Look around."])
	}
}
