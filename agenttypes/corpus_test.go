package agenttypes

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// corpusCase is what one real agent file of the corpus (testdata/agents/
// real, see its SOURCES) means in the tool it was written for: Claude
// Code for .claude/agents and plugin agents/ folders, OpenCode for
// .opencode/agent(s). The expectations come from those tools'
// documentation, not from what baton happens to do.
type corpusCase struct {
	file string // below testdata/agents/real
	// name and model as the tool reads them; model "" means inherit.
	name, model string
	// tools granted in baton's names (nil: the default set, as a file
	// naming no tools gets every tool) and tools named that baton lacks.
	tools, dropped []string
	// desc and descEnd are the description's first and last words, so a
	// description cut at a colon or a line fails.
	desc, descEnd string
	// prompt is the system prompt's opening words.
	prompt string
	hidden bool
	color  string
	perms  *Rules
	temp   *float64
	steps  int
	effort string
	// warn is a warning the file earns though it loads; "" for none.
	warn string
	// skip is the warning of a file its own tool does not load either.
	skip string
}

// placeCorpusFile copies a corpus file to where its tool finds it in a
// fresh project: OpenCode files keep their path from .opencode on, the
// others go to .claude/agents.
func placeCorpusFile(t *testing.T, project, file string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(real, filepath.FromSlash(file)))
	if err != nil {
		t.Fatal(err)
	}
	rel := filepath.Join(".claude", "agents", filepath.Base(file))
	if i := strings.Index(file, ".opencode/"); i >= 0 {
		rel = filepath.FromSlash(file[i:])
	}
	path := filepath.Join(project, rel)
	writeFile(t, path, string(data))
	return path
}

func runCorpus(t *testing.T, cases []corpusCase) {
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			project := t.TempDir()
			path := placeCorpusFile(t, project, tc.file)
			r := Load(LoadOptions{ProjectDir: project})
			var got *Type
			for _, ty := range r.All() {
				if ty.Source == path {
					got = &ty
				}
			}
			warns := r.Warnings()
			if tc.skip != "" {
				if got != nil || len(warns) != 1 || !strings.Contains(warns[0].Message, tc.skip) {
					t.Fatalf("loaded %v, warnings %v; want it skipped saying %q", got != nil, warns, tc.skip)
				}
				return
			}
			if got == nil {
				t.Fatalf("did not load: %v", warns)
			}
			checkCorpusType(t, tc, *got)
			switch {
			case tc.warn == "" && len(warns) != 0:
				t.Errorf("warnings %v, want none: its own tool reads this file as it is", warns)
			case tc.warn != "" && (len(warns) != 1 || !strings.Contains(warns[0].Message, tc.warn)):
				t.Errorf("warnings %v, want one saying %q", warns, tc.warn)
			}
		})
	}
}

func checkCorpusType(t *testing.T, tc corpusCase, got Type) {
	t.Helper()
	model := tc.model
	if model == "" {
		model = InheritModel
	}
	if got.Name != tc.name || got.Model != model || got.Hidden != tc.hidden || got.Disabled {
		t.Errorf("name %q model %q hidden %v disabled %v, want %q %q hidden %v", got.Name, got.Model, got.Hidden, got.Disabled, tc.name, model, tc.hidden)
	}
	tools := tc.tools
	if tools == nil {
		tools = BaseTools
	}
	if !slices.Equal(got.Tools, tools) || !slices.Equal(got.DroppedTools, tc.dropped) {
		t.Errorf("tools %q dropped %q, want %q dropped %q", got.Tools, got.DroppedTools, tools, tc.dropped)
	}
	if !strings.HasPrefix(got.Description, tc.desc) || !strings.HasSuffix(got.Description, tc.descEnd) {
		t.Errorf("description %q, want it from %q to %q", got.Description, tc.desc, tc.descEnd)
	}
	if !strings.HasPrefix(got.SystemPrompt, tc.prompt) || tc.prompt == "" {
		t.Errorf("prompt %.60q…, want it to open with %q", got.SystemPrompt, tc.prompt)
	}
	if got.Color != tc.color || got.MaxSteps != tc.steps || got.Effort != tc.effort {
		t.Errorf("color %q steps %d effort %q, want %q %d %q", got.Color, got.MaxSteps, got.Effort, tc.color, tc.steps, tc.effort)
	}
	if (got.Temperature == nil) != (tc.temp == nil) || got.Temperature != nil && *got.Temperature != *tc.temp {
		t.Errorf("temperature %v, want %v", got.Temperature, tc.temp)
	}
	perms := Rules{}
	if tc.perms != nil {
		perms = *tc.perms
	}
	if !slices.Equal(got.Permissions.Allow, perms.Allow) || !slices.Equal(got.Permissions.Ask, perms.Ask) || !slices.Equal(got.Permissions.Deny, perms.Deny) {
		t.Errorf("permissions %+v, want %+v", got.Permissions, perms)
	}
}
