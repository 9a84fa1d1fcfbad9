package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// home is a person's machine in miniature, one per case: a home folder
// whose config names the endpoint and model, whose state folder fills
// with sessions as the runs go, and a project that is a git repository
// with a few hundred files, an AGENTS.md and a .gitignore. baton starts
// git, reads the context files and walks the project as it would for a
// person; an empty folder outside git skipped all of that.
type home struct {
	dir, project string
	env          []string
}

// projectPackages and filesPerPackage size the generated project.
const (
	projectPackages = 16
	filesPerPackage = 12
)

// newHome makes a home under dir for the endpoint at url; config is added
// to the person's config file.
func newHome(dir, url, config string) (*home, error) {
	h := &home{dir: dir, project: filepath.Join(dir, "src", "app")}
	cfg := fmt.Sprintf("base_url = %q\nmodel = \"perf-model\"\n%s", url, config)
	if err := writeFile(filepath.Join(dir, ".config", "baton", "config.toml"), cfg); err != nil {
		return nil, err
	}
	if err := makeProject(h.project); err != nil {
		return nil, err
	}
	h.env = []string{
		"HOME=" + dir, "PATH=" + os.Getenv("PATH"), "USER=perf", "LOGNAME=perf", "SHELL=/bin/sh",
		"TERM=xterm-256color", "COLORTERM=truecolor", "LANG=C.UTF-8",
		"OPENAI_API_KEY=sk-perf-0123456789abcdef0123456789abcdef",
	}
	return h, nil
}

// makeProject writes a small Go module and commits it.
func makeProject(dir string) error {
	files := map[string]string{
		"go.mod":     "module example.com/app\n\ngo 1.22\n",
		".gitignore": "/bin/\n*.log\nnode_modules/\n",
		"README.md":  "# app\n\nA service with " + fmt.Sprint(projectPackages) + " packages.\n\n" + strings.Repeat("It reads requests, checks them and stores what they carry.\n", 40),
		"AGENTS.md":  "# Notes for agents\n\n- Run `go test ./...` before you finish.\n- Keep handlers small; errors are wrapped with the operation.\n",
	}
	for p := range projectPackages {
		for f := range filesPerPackage {
			var b strings.Builder
			fmt.Fprintf(&b, "package pkg%d\n\nimport \"fmt\"\n\n", p)
			for fn := range 8 {
				fmt.Fprintf(&b, "// New%d%d builds thing %d of file %d.\nfunc New%d%d(name string, size int) (string, error) {\n\tif size < 0 {\n\t\treturn \"\", fmt.Errorf(\"new %%s: negative size %%d\", name, size)\n\t}\n\treturn fmt.Sprintf(\"%%s-%%d\", name, size), nil\n}\n\n", f, fn, fn, f, f, fn)
			}
			files[fmt.Sprintf("internal/pkg%d/file%d.go", p, f)] = b.String()
		}
	}
	for name, text := range files {
		if err := writeFile(filepath.Join(dir, name), text); err != nil {
			return err
		}
	}
	for _, args := range [][]string{
		{"init", "-q"},
		{"add", "-A"},
		{"-c", "user.name=perf", "-c", "user.email=perf@example.com", "commit", "-q", "-m", "start"},
	} {
		git := exec.Command("git", args...)
		git.Dir = dir
		if out, err := git.CombinedOutput(); err != nil {
			return fmt.Errorf("git %s: %w: %s", args[0], err, out)
		}
	}
	return nil
}

// writeFile writes text at path, making its folder.
func writeFile(path, text string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(text), 0o644)
}
