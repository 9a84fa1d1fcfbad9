package skills

import (
	"encoding/json"

	"github.com/seed-e4e525a6/baton/engine/rules"
)

// wireSkill is a Skill as JSON, the folder its file must stay inside
// included: what a child placed in another process needs to load it as
// baton would.
type wireSkill struct {
	Name           string       `json:"name"`
	Description    string       `json:"description"`
	AllowedTools   []string     `json:"allowed_tools,omitempty"`
	Allowed        []rules.Rule `json:"allowed,omitempty"`
	Dropped        []string     `json:"dropped,omitempty"`
	ModelInvocable bool         `json:"model_invocable"`
	Dir            string       `json:"dir"`
	File           string       `json:"file"`
	Source         string       `json:"source"`
	Project        bool         `json:"project"`
	Root           string       `json:"root"`
}

// MarshalJSON implements json.Marshaler.
func (s Skill) MarshalJSON() ([]byte, error) {
	return json.Marshal(wireSkill{Name: s.Name, Description: s.Description, AllowedTools: s.AllowedTools, Allowed: s.Allowed,
		Dropped: s.Dropped, ModelInvocable: s.ModelInvocable, Dir: s.Dir, File: s.File, Source: s.Source, Project: s.Project, Root: s.root})
}

// UnmarshalJSON implements json.Unmarshaler.
func (s *Skill) UnmarshalJSON(data []byte) error {
	var w wireSkill
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*s = Skill{Name: w.Name, Description: w.Description, AllowedTools: w.AllowedTools, Allowed: w.Allowed, Dropped: w.Dropped,
		ModelInvocable: w.ModelInvocable, Dir: w.Dir, File: w.File, Source: w.Source, Project: w.Project, root: w.Root}
	return nil
}
