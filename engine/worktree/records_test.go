package worktree

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// MayHaveRecords finds the repository's .git from any folder below it and
// says whether git must be asked: only when linked worktrees were ever
// recorded there, or when .git is a pointer file.
func TestMayHaveRecords(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	sub := filepath.Join(repo, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if MayHaveRecords(sub) {
		t.Fatal("no .git anywhere above: want false")
	}
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if MayHaveRecords(sub) || MayHaveRecords(repo) {
		t.Fatal("a .git folder without worktrees: want false")
	}
	if err := os.Mkdir(filepath.Join(repo, ".git", "worktrees"), 0o755); err != nil {
		t.Fatal(err)
	}
	if !MayHaveRecords(sub) {
		t.Fatal("a .git folder with worktrees: want true")
	}
	linked := filepath.Join(root, "linked")
	if err := os.MkdirAll(linked, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(linked, ".git"), []byte("gitdir: "+filepath.Join(repo, ".git", "worktrees", "x")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !MayHaveRecords(linked) {
		t.Fatal("a .git file: want true, git is asked")
	}
}

// TestLocationKeepsNamesToOneFolder: a session or child name from a
// model or a repository ("../..", "/etc", "x/../../y") stays one folder
// under the state root, never a way out of it.
func TestLocationKeepsNamesToOneFolder(t *testing.T) {
	root := "/state/worktrees"
	for _, name := range []string{"..", ".", "../../etc", "/etc/passwd", "a/../../b", "ça", "", "..."} {
		dir := Location(root, "/home/u/app", name, name)
		rel, err := filepath.Rel(root, dir)
		if err != nil || strings.HasPrefix(rel, "..") || len(strings.Split(rel, string(filepath.Separator))) != 3 {
			t.Errorf("Location(%q) = %s, not three folders under %s", name, dir, root)
		}
	}
	if a, b := Location(root, "/a/app", "s", "c"), Location(root, "/b/app", "s", "c"); a == b {
		t.Errorf("two repositories named app share %s", a)
	}
}

// TestListSkipsRecordsThatDoNotDescribeTheirPlace: a record that does
// not parse, cannot be read, or names another folder than the one it
// sits beside (a planted record pointing at the person's files), is not
// listed; the rest are, oldest first, even under a state folder whose
// name a glob would read as a pattern.
func TestListSkipsRecordsThatDoNotDescribeTheirPlace(t *testing.T) {
	root := filepath.Join(t.TempDir(), "home[1]*")
	older, newer := filepath.Join(root, "p", "s", "older"), filepath.Join(root, "p", "s", "newer")
	for _, dir := range []string{older, newer} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now()
	if err := (Record{Dir: newer, Agent: "newer", Created: now}).Save(); err != nil {
		t.Fatal(err)
	}
	if err := (Record{Dir: older, Agent: "older", Created: now.Add(-time.Hour)}).Save(); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(root, "p", "s"), "garbled.json", "{not json")
	write(t, filepath.Join(root, "p", "s"), "forged.json", `{"dir":"/home/u/app","agent":"forged"}`)
	if err := os.Mkdir(filepath.Join(root, "p", "s", "folder.json"), 0o700); err != nil {
		t.Fatal(err)
	}
	list, err := List(root)
	if err != nil || len(list) != 2 || list[0].Agent != "older" || list[1].Agent != "newer" {
		t.Fatalf("List = %+v, %v", list, err)
	}
	if err := (Record{Dir: filepath.Join(root, "no", "such", "folder")}).Save(); err == nil {
		t.Error("a record saved into a folder that does not exist")
	}
}
