package skills

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/rules"
)

// A skill survives JSON whole, the folder its file must stay inside
// included: a child in another process reads it as baton would.
func TestSkillSurvivesJSON(t *testing.T) {
	want := Skill{Name: "style", Description: "d", AllowedTools: []string{"Read"}, Allowed: []rules.Rule{{Tool: "read_file"}},
		ModelInvocable: true, Dir: "/s/style", File: "/s/style/SKILL.md", Source: ".claude/skills", Project: true, root: "/ws"}
	data, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	var got Skill
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
}
