package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// seedSessions fills the home's state folder with n stored sessions, half
// of this project and half of another, copied from one real run so their
// files are what baton writes. Their ids are recent, so none is old enough
// to prune and every run sees all n.
func seedSessions(t tools, h *home, srv *server, n int) error {
	srv.use(script{words: 5})
	cmd := exec.Command(t.baton, "-p", "seed")
	cmd.Dir, cmd.Env = h.project, h.env
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("seed run: %w: %s", err, out)
	}
	root := filepath.Join(h.dir, ".local", "state", "baton", "sessions")
	projects, err := os.ReadDir(root)
	if err != nil || len(projects) != 1 {
		return fmt.Errorf("seed run left no single project under %s: %v", root, err)
	}
	project := filepath.Join(root, projects[0].Name())
	entries, err := os.ReadDir(project)
	var ids []string
	for _, e := range entries {
		if e.IsDir() { // the folder also holds baton's prune stamp
			ids = append(ids, e.Name())
		}
	}
	if err != nil || len(ids) != 1 {
		return fmt.Errorf("seed run left no single session: %v", err)
	}
	src := filepath.Join(project, ids[0])
	other := filepath.Join(root, "other-project-0000")
	now := time.Now().UTC()
	for i := range n {
		dst := project
		if i%2 == 1 {
			dst = other
		}
		id := fmt.Sprintf("%s-%04x", now.Add(-time.Duration(i)*time.Minute).Format("20060102-1504"), i%0x10000)
		if err := copyDir(src, filepath.Join(dst, id)); err != nil {
			return err
		}
	}
	return nil
}

// copyDir copies a session folder's files (it has no sub-folders that
// matter for listing and pruning).
func copyDir(src, dst string) error {
	if err := os.MkdirAll(dst, 0o700); err != nil {
		return err
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), data, 0o600); err != nil {
			return err
		}
	}
	return nil
}
