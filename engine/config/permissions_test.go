package config

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// ruleTexts writes rules as "kind rule @source" for comparison.
func ruleTexts(list []event.PermissionRule) []string {
	out := make([]string, len(list))
	for i, r := range list {
		out[i] = r.Kind + " " + r.Rule + " @" + r.Source
	}
	return out
}

// TestPermissionRulesFromEveryFile: the user config, Claude Code's user
// settings (names mapped), and the project's config and settings, which
// add deny and ask only until the folder is trusted.
func TestPermissionRulesFromEveryFile(t *testing.T) {
	w := newConfigWorld(t, `notify = "title"
[permissions]
allow = ["run_command(go test:*)", "write_file(docs/**)"]
deny = ["run_command(git push:*)"]`, `[permissions]
allow = ["run_command"]
ask = ["edit_file(src/**)"]`)
	writeFile(t, filepath.Join(w.home, ".claude", "settings.json"),
		`{"permissions":{"allow":["Bash(npm run test:*)","Edit(//etc/hosts)","Read(~/notes/**)","WebFetch(domain:x.org)"],"deny":["Read(./.env)"]}}`)
	writeFile(t, filepath.Join(w.workspace, ".claude", "settings.json"),
		`{"permissions":{"allow":["Bash"],"deny":["Bash(rm *)","mcp__gh__delete_repo"]}}`)
	env := map[string]string{"HOME": w.home}
	cfg, err := Load(Sources{Env: env, Workspace: w.workspace}) // not trusted
	if err != nil {
		t.Fatal(err)
	}
	got := ruleTexts(cfg.Rules)
	want := []string{
		"deny run_command(git push:*) @user config",
		"allow run_command(go test:*) @user config", "allow write_file(docs/**) @user config",
		"deny read_file(.env) @~/.claude/settings.json",
		"allow run_command(npm run test:*) @~/.claude/settings.json", "allow edit_file(/etc/hosts) @~/.claude/settings.json",
		"allow read_file(" + filepath.ToSlash(filepath.Join(w.home, "notes/**")) + ") @~/.claude/settings.json",
		"allow web_fetch(domain:x.org) @~/.claude/settings.json",
		"ask edit_file(src/**) @project config",
		"deny run_command(rm:*) @.claude/settings.json", "deny mcp__gh__delete_repo @.claude/settings.json",
	}
	if !slices.Equal(got, want) {
		t.Errorf("rules\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	notices := strings.Join(cfg.Notices, "\n")
	for _, sub := range []string{"ignored 1 allow rule(s) in .baton/config.toml", "ignored 1 allow rule(s) in .claude/settings.json"} {
		if !strings.Contains(notices, sub) {
			t.Errorf("notices %q lack %q", notices, sub)
		}
	}
	if cfg.Notify != "title" {
		t.Errorf("notify %q", cfg.Notify)
	}
	trusted, err := Load(Sources{Env: env, Workspace: w.workspace, Trusted: true})
	if err != nil {
		t.Fatal(err)
	}
	texts := strings.Join(ruleTexts(trusted.Rules), "\n")
	for _, sub := range []string{"allow run_command @project config", "allow run_command @.claude/settings.json"} {
		if !strings.Contains(texts, sub) {
			t.Errorf("a trusted folder's %q is missing:\n%s", sub, texts)
		}
	}
}

// TestProjectSettingsOutsideTheWorkspaceAreNotRead: a symlinked
// .claude/settings.json pointing out of the repository is refused with a
// notice.
func TestProjectSettingsOutsideTheWorkspaceAreNotRead(t *testing.T) {
	w := newConfigWorld(t, "", "")
	outside := filepath.Join(t.TempDir(), "settings.json")
	writeFile(t, outside, `{"permissions":{"deny":["Bash"]}}`)
	if err := os.MkdirAll(filepath.Join(w.workspace, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(w.workspace, ".claude", "settings.json")); err != nil {
		t.Fatal(err)
	}
	cfg, err := w.load(t, Overrides{}, nil)
	if err != nil {
		t.Fatalf("the repository's file kept baton from starting: %v", err)
	}
	if notes := strings.Join(cfg.Notices, "\n"); !strings.Contains(notes, ".claude/settings.json: resolves outside the workspace") {
		t.Errorf("notices do not say the file was refused:\n%s", notes)
	}
	if len(cfg.Rules) != 0 {
		t.Errorf("rules of the file outside were read: %v", cfg.Rules)
	}
}

// TestProjectSettingsFIFODoesNotHang: a repository's .claude/settings.json
// that is a named pipe is refused, with a notice, without being opened; opening it for
// reading blocks until a writer comes, which hung baton at start. The
// test plays the writer: a non-blocking open for writing succeeds only
// while a reader holds the pipe, so success means the loader opened it.
func TestProjectSettingsFIFODoesNotHang(t *testing.T) {
	w := newConfigWorld(t, "", "")
	fifo := filepath.Join(w.workspace, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(fifo), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	type loaded struct {
		cfg Config
		err error
	}
	done := make(chan loaded, 1)
	go func() {
		cfg, err := w.load(t, Overrides{}, nil)
		done <- loaded{cfg, err}
	}()
	for {
		select {
		case got := <-done:
			if notes := strings.Join(got.cfg.Notices, "\n"); got.err != nil || !strings.Contains(notes, "named pipe") {
				t.Fatalf("err %v, notices %q: want the FIFO named in a notice", got.err, notes)
			}
			return
		default:
		}
		if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
			t.Fatal("the loader opened the FIFO in the workspace's .claude/settings.json")
		}
		runtime.Gosched()
	}
}

// TestAllowFlagTakesRules: --allow keeps plain names and takes rules,
// split at commas outside parentheses.
func TestAllowFlagTakesRules(t *testing.T) {
	allow, err := ParseAllow([]string{"read_file,run_command(go test:*)", "write_file(src/{a,b}/**),,"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"read_file", "run_command(go test:*)", "write_file(src/{a,b}/**)"}; !slices.Equal(allow, want) {
		t.Fatalf("allow %v, want %v", allow, want)
	}
	for _, bad := range []string{"run_command(go test", "rm(x)", "run_command($(x):*)"} {
		if _, err := ParseAllow([]string{bad}); err == nil || !strings.HasPrefix(err.Error(), "--allow: ") {
			t.Errorf("--allow %q: err %v", bad, err)
		}
	}
}

// TestSaveRulesKeepsEverythingElse: /permissions save replaces only the
// [permissions] table, writes only user and session rules, and keeps
// comments, keys and the tables after it.
func TestSaveRulesKeepsEverythingElse(t *testing.T) {
	path := filepath.Join(t.TempDir(), "baton", "config.toml")
	writeFile(t, path, "# my settings\nmodel = \"gpt-4.1\"\n\n[permissions] # old\nallow = [\n  \"write_file\",\n]\n\n[limits]\nmax_depth = 2 # deep\n")
	err := SaveRules(path, []event.PermissionRule{
		{Kind: "allow", Rule: "run_command(go test:*)", Source: event.SourceSession},
		{Kind: "deny", Rule: "run_command(rm:*)", Source: event.SourceUser},
		{Kind: "ask", Rule: "edit_file(src/**)", Source: event.SourceProject},
	})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	text := string(data)
	for _, sub := range []string{"# my settings", `model = "gpt-4.1"`, "max_depth = 2 # deep", `allow = ["run_command(go test:*)"]`, `deny = ["run_command(rm:*)"]`} {
		if !strings.Contains(text, sub) {
			t.Errorf("saved file lacks %q:\n%s", sub, text)
		}
	}
	if strings.Contains(text, "edit_file") || strings.Contains(text, `"write_file"`) {
		t.Errorf("saved file keeps rules it should not:\n%s", text)
	}
	fc, err := loadConfigFile(path, path, userScope, nil)
	if err != nil || fc.Limits.MaxDepth == nil || *fc.Limits.MaxDepth != 2 {
		t.Fatalf("saved file reads back wrong: %v", err)
	}
	// A new file gets just the table; a file that does not parse is left alone.
	fresh := filepath.Join(t.TempDir(), "config.toml")
	if err := SaveRules(fresh, []event.PermissionRule{{Kind: "allow", Rule: "write_file", Source: event.SourceSession}}); err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(t.TempDir(), "config.toml")
	writeFile(t, broken, "model = \n")
	if err := SaveRules(broken, nil); err == nil {
		t.Fatal("a broken file must not be rewritten")
	}
	if data, _ := os.ReadFile(broken); string(data) != "model = \n" {
		t.Fatal("the broken file changed")
	}
}

// TestSaveRulesRefusesWhatItCannotWriteSafely: no user folder, a
// permissions table written as dotted keys, a file that would not load
// once written: each is an error, and the file is left as it was; a
// file's mode is kept.
func TestSaveRulesRefusesWhatItCannotWriteSafely(t *testing.T) {
	session := []event.PermissionRule{{Kind: "allow", Rule: "grep", Source: event.SourceSession}}
	if err := SaveRules("", session); err == nil || !strings.Contains(err.Error(), "no user config folder") {
		t.Errorf("no path: %v", err)
	}
	dir := t.TempDir()
	dotted := filepath.Join(dir, "dotted.toml")
	writeFile(t, dotted, "permissions.allow = [\"grep\"]\n")
	if err := SaveRules(dotted, session); err == nil || !strings.Contains(err.Error(), "move it into a [permissions] table first") {
		t.Errorf("dotted keys: %v", err)
	}
	// A key the file already had wrong: the rewrite would not load.
	broken := filepath.Join(dir, "broken.toml")
	writeFile(t, broken, "max_steps = 0\n")
	if err := SaveRules(broken, session); err == nil || !strings.Contains(err.Error(), "the new file would not load") {
		t.Errorf("a file that would not load: %v", err)
	}
	if data, _ := os.ReadFile(broken); string(data) != "max_steps = 0\n" {
		t.Errorf("the file changed: %q", data)
	}
	if err := SaveRules(dir, session); err == nil {
		t.Error("a folder where the file should be was written over")
	}
	private := filepath.Join(dir, "private.toml")
	writeFile(t, private, "model = \"m\"\n")
	if err := os.Chmod(private, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := SaveRules(private, session); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(private); err != nil || info.Mode().Perm() != 0o640 {
		t.Errorf("mode after saving: %v %v", info.Mode(), err)
	}
	if data, _ := os.ReadFile(private); !strings.HasPrefix(string(data), "model = \"m\"\n\n[permissions]\n") || !strings.Contains(string(data), `allow = ["grep"]`) {
		t.Errorf("saved:\n%s", data)
	}
}
