package engine

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependenciesPointOneWay keeps the layering of DESIGN.md: cmd → {ui,
// engine, agenttypes, themes}, ui → {engine, agenttypes, themes}, engine →
// agenttypes; engine never reaches bubbletea or lipgloss, ui never reaches
// go-openai (it reads sessions through engine/event), agenttypes and
// themes import no other baton package. The approval cards show what the
// engine decided and never decide policy again: ui/approval does not
// import engine/rules. baton links nothing of client-go.
func TestDependenciesPointOneWay(t *testing.T) {
	const mod = "github.com/seed-e4e525a6/baton/"
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "../...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	forbidden := map[string][]string{
		mod + "engine":      {mod + "ui", mod + "themes", mod + "cmd", "github.com/charmbracelet/"},
		mod + "agenttypes":  {mod + "engine", mod + "ui", mod + "themes", mod + "cmd"},
		mod + "themes":      {mod + "engine", mod + "ui", mod + "agenttypes", mod + "cmd"},
		mod + "ui":          {mod + "cmd", "github.com/sashabaranov/go-openai"},
		mod + "ui/approval": {mod + "engine/rules"},
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg, imports := fields[0], fields[1:]
		for owner, bans := range forbidden {
			if pkg != owner && !strings.HasPrefix(pkg, owner+"/") {
				continue
			}
			for _, imp := range imports {
				for _, ban := range bans {
					if imp == ban || strings.HasPrefix(imp, ban) && (strings.HasSuffix(ban, "/") || strings.HasPrefix(imp, ban+"/")) {
						t.Errorf("%s imports %s, which the layering forbids", pkg, imp)
					}
				}
			}
		}
	}
	for pkgs, banned := range map[string][]string{
		"../engine/...": {"github.com/charmbracelet/bubbletea", "github.com/charmbracelet/lipgloss", "github.com/charmbracelet/bubbles"},
		"../ui/...":     {"github.com/sashabaranov/go-openai"},
		// client-go's scheme registration costs every start of baton 12
		// MiB and as many milliseconds: it lives in cmd/baton-kube.
		"../cmd/baton": {"k8s.io/", "sigs.k8s.io/"},
	} {
		deps, err := exec.Command("go", "list", "-deps", pkgs).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps: %v\n%s", err, deps)
		}
		for _, dep := range strings.Fields(string(deps)) {
			for _, ban := range banned {
				if strings.HasPrefix(dep, ban) {
					t.Errorf("%s depends on %s", pkgs, dep)
				}
			}
		}
	}
}
