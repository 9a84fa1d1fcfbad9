package rules

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// cmdCall is a run_command call of cmd.
func cmdCall(cmd string) Call {
	args, _ := json.Marshal(map[string]string{"command": cmd})
	return CallOf(CommandTool, args, "/work/app")
}

// fileCall is a call of tool on path.
func fileCall(tool, path string) Call {
	args, _ := json.Marshal(map[string]string{"path": path})
	return CallOf(tool, args, "/work/app")
}

func mustParse(t *testing.T, s string) Rule {
	t.Helper()
	r, err := Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestPrefixNeverLetsAnotherCommandThrough is the attack: an allowed
// go test prefix must not cover rm, wherever the shell would run it.
func TestPrefixNeverLetsAnotherCommandThrough(t *testing.T) {
	allow := []Rule{mustParse(t, "run_command(go test:*)")}
	covered := []string{
		"go test", "go test ./...", "go test -run 'TestX' ./engine/...", `go "test" -v`, `g\o test`,
		"go test ./... && go test -race ./...", "go test 2>&1 | go test", "(go test)", "go test > /dev/null",
		"go test $(go test -list .)", "go test $PKG", "go test < input.txt",
	}
	for _, cmd := range covered {
		if !Covered(allow, cmdCall(cmd)) {
			t.Errorf("%q should be covered by go test:*", cmd)
		}
	}
	refused := []string{
		"rm -rf x", "go test ./... && rm x", "go test; rm x", "go test | rm x", "go test || rm x",
		"(go test; rm x)", "go test $(rm x)", "go test `rm x`", "{ go test; rm x; }", "go test & rm x",
		"go test\nrm x", "go vet", "go testing", "gotest", "go test > /etc/passwd", "go test >> out.txt",
		"PATH=/tmp go test", "go test $((PATH=5))", "go test ${X:=1}", "if rm x; then go test; fi",
		"for PATH in /tmp; do go test; done", "f() { rm x; }; go test", "export PATH=/tmp; go test",
		"go test <(rm x)", "$(echo go) test", "go test 'unterminated", "", "go test {fd}>x",
		"diff <(go test) <(rm x)", "while rm x; do go test; done", "X=1",
	}
	for _, cmd := range refused {
		if Covered(allow, cmdCall(cmd)) {
			t.Errorf("%q must not be covered by go test:*", cmd)
		}
	}
}

// TestExactCommandRule covers one command and nothing longer.
func TestExactCommandRule(t *testing.T) {
	allow := []Rule{mustParse(t, "run_command(git status)")}
	for cmd, want := range map[string]bool{
		"git status": true, "git  status": true, "'git' status": true, "git status --short": false,
		"git status $X": false, "git status; git push": false, "git": false,
	} {
		if got := Covered(allow, cmdCall(cmd)); got != want {
			t.Errorf("%q covered = %v, want %v", cmd, got, want)
		}
	}
}

// TestDenyTouchesAnyPart: one denied part is enough, also behind a path
// or a wrapper, and in a command that does not parse.
func TestDenyTouchesAnyPart(t *testing.T) {
	deny := mustParse(t, "run_command(rm:*)")
	for _, cmd := range []string{"rm x", "go test && rm x", "ls | (cd /; rm -rf .)", "/bin/rm x", "sudo rm x", "env A=1 rm x", "echo $(rm x)", "rm 'x"} {
		if !deny.Touches(cmdCall(cmd)) {
			t.Errorf("deny rm:* should touch %q", cmd)
		}
	}
	for _, cmd := range []string{"go test", "echo rm", "rmdir x"} {
		if deny.Touches(cmdCall(cmd)) {
			t.Errorf("deny rm:* should not touch %q", cmd)
		}
	}
}

// TestFileRules are doublestar globs relative to the workspace; a path
// that climbs out matches no relative rule.
func TestFileRules(t *testing.T) {
	r := mustParse(t, "write_file(docs/**)")
	for path, want := range map[string]bool{
		"docs/a.md": true, "docs/x/y/z.md": true, "./docs/a.md": true, "/work/app/docs/a.md": true,
		"src/a.go": false, "docs/../src/a.go": false, "../app/docs/a.md": true, "../other/docs/a.md": false,
		"/etc/passwd": false,
	} {
		if got := r.Matches(fileCall("write_file", path)); got != want {
			t.Errorf("write_file(docs/**) on %q = %v, want %v", path, got, want)
		}
	}
	if r.Matches(fileCall("edit_file", "docs/a.md")) {
		t.Error("a write_file rule must not cover edit_file")
	}
	go_ := mustParse(t, "edit_file(src/**/*.go)")
	if !go_.Matches(fileCall("edit_file", "src/a/b.go")) || go_.Matches(fileCall("edit_file", "src/a/b.txt")) {
		t.Error("edit_file(src/**/*.go) matches by extension")
	}
}

// TestDecideOrder: deny beats ask beats allow.
func TestDecideOrder(t *testing.T) {
	var s Set
	s.Add(Allow, mustParse(t, "run_command"))
	s.Add(Ask, mustParse(t, "run_command(git push:*)"))
	s.Add(Deny, mustParse(t, "run_command(git push --force:*)"))
	for cmd, want := range map[string]Verdict{
		"ls": Allowed, "git push origin": Asked, "git push --force origin": Denied, "ls && git push": Asked,
	} {
		if got, _ := s.Decide(cmdCall(cmd)); got != want {
			t.Errorf("%q: verdict %v, want %v", cmd, got, want)
		}
	}
}

// TestScopedFirst is an agent file's reading: patterns first, the bare
// name as the fallback.
func TestScopedFirst(t *testing.T) {
	var s Set
	s.Add(Allow, mustParse(t, "run_command(git diff:*)"))
	s.Add(Allow, mustParse(t, "run_command(git log:*)"))
	s.Add(Deny, mustParse(t, "run_command"))
	for cmd, want := range map[string]Verdict{
		"git diff HEAD~1": Allowed, "git log --oneline": Allowed, "git diff && git log": Allowed,
		"git push": Denied, "git diff; rm x": Denied, "rm x": Denied,
	} {
		if got, _ := s.DecideScopedFirst(cmdCall(cmd)); got != want {
			t.Errorf("%q: verdict %v, want %v", cmd, got, want)
		}
	}
}

// TestParse reads and writes rules back.
func TestParse(t *testing.T) {
	for in, want := range map[string]string{
		"write_file": "write_file", "run_command(go test:*)": "run_command(go test:*)",
		"run_command( git   status )": "run_command(git status)", "write_file(./docs/**)": "write_file(docs/**)",
		"run_command('my tool' x:*)": "run_command('my tool' x:*)", "mcp__gh__issue": "mcp__gh__issue",
	} {
		if got := mustParse(t, in).String(); got != want {
			t.Errorf("Parse(%q) = %q, want %q", in, got, want)
		}
	}
	for _, bad := range []string{"", "run_command()", "run_command(go test", "run_command(a && b:*)", "run_command($X:*)",
		"write_file([)", "task(x)", "bad name", "run_command(ls > f)"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) should fail", bad)
		}
	}
}

// TestSuggest offers a command's own prefix, never the whole tool.
func TestSuggest(t *testing.T) {
	for cmd, want := range map[string]string{
		"go test ./...":                   "run_command(go test:*)",
		"git status":                      "run_command(git status:*)",
		"ls -la":                          "run_command(ls:*)",
		"npm run lint -- --fix":           "run_command(npm run lint:*)",
		"python3 script.py":               "run_command(python3 script.py)",
		"./build.sh release":              "run_command(./build.sh release)",
		"go build ./... && go test ./...": "run_command(go build:*) run_command(go test:*)",
		"go test $(rm x)":                 "run_command(go test:*) run_command(rm x:*)",
		"timeout 60 go test ./...":        "run_command(timeout 60 go test ./...)",
		"stdbuf -oL make":                 "run_command(stdbuf -oL make)",
		// a runner's subcommand alone would allow anything: uv run rm x
		"uv run pytest -x":      "run_command(uv run pytest:*)",
		"bundle exec rake test": "run_command(bundle exec rake:*)",
	} {
		got := Suggest(cmdCall(cmd))
		if s := joinRules(got); s != want {
			t.Errorf("Suggest(%q) = %q, want %q", cmd, s, want)
		}
	}
	for _, cmd := range []string{"PATH=/x go test", "go test > out", "$(echo rm) x", "bash -c \"$X\"", "uv run --with x pytest"} {
		if got := Suggest(cmdCall(cmd)); got != nil {
			t.Errorf("Suggest(%q) = %v, want nothing", cmd, got)
		}
	}
	if got := joinRules(Suggest(fileCall("write_file", "docs/a[1].md"))); got != `write_file(docs/a\[1\].md)` {
		t.Errorf("file suggestion %q", got)
	}
	if got := joinRules(SuggestFolder(fileCall("write_file", "docs/api/a.md"))); got != "write_file(docs/api/**)" {
		t.Errorf("folder suggestion %q", got)
	}
	if SuggestFolder(fileCall("write_file", "a.md")) != nil {
		t.Error("no folder is offered for a file at the root")
	}
}

func joinRules(list []Rule) string {
	s := ""
	for i, r := range list {
		if i > 0 {
			s += " "
		}
		s += r.String()
	}
	return s
}

// TestSuggestionsCoverTheirCall: what "always" adds allows the call it
// was offered for, and a file rule only that file.
func TestSuggestionsCoverTheirCall(t *testing.T) {
	for _, cmd := range []string{"go test ./...", "go build ./... && go test ./...", "python3 script.py", "npm run lint"} {
		c := cmdCall(cmd)
		if !Covered(Suggest(c), c) {
			t.Errorf("the suggestion for %q does not cover it", cmd)
		}
	}
	c := fileCall("write_file", "docs/a[1].md")
	list := Suggest(c)
	if !Covered(list, c) || Covered(list, fileCall("write_file", "docs/a1.md")) {
		t.Error("a file suggestion covers exactly its file")
	}
	for _, r := range list {
		if back, err := Parse(r.String()); err != nil || back.String() != r.String() {
			t.Errorf("suggestion %q does not read back: %v", r, err)
		}
	}
}

// TestFileRulesFollowLinks: a deny holds for any name of its file (a
// link to it, a linked folder), an allow only when both the name and the
// file it reaches are allowed, and a scoped read_file rule binds the
// other tools that read.
func TestFileRulesFollowLinks(t *testing.T) {
	ws := t.TempDir()
	for _, dir := range []string{"docs", "src", "secrets"} {
		if err := os.Mkdir(filepath.Join(ws, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{".env", "src/main.go", "docs/a.md", "secrets/k"} {
		if err := os.WriteFile(filepath.Join(ws, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"innocent.txt": ".env", "docs/link.md": "../src/main.go", "vault": "secrets", "dangling": "secrets/new"} {
		if err := os.Symlink(target, filepath.Join(ws, link)); err != nil {
			t.Fatal(err)
		}
	}
	denyEnv, denySecrets := mustParse(t, "read_file(.env)"), mustParse(t, "write_file(secrets/**)")
	if !denyEnv.Touches(PathCall("read_file", "innocent.txt", ws)) {
		t.Error("deny read_file(.env) must touch a link to .env")
	}
	if !denyEnv.Touches(PathCall("read_file", filepath.Join(ws, "innocent.txt"), ws)) {
		t.Error("deny read_file(.env) must touch a link to .env named absolute")
	}
	for _, p := range []string{"vault/k", "dangling"} {
		if !denySecrets.Touches(PathCall("write_file", p, ws)) {
			t.Errorf("deny write_file(secrets/**) must touch %s", p)
		}
	}
	for _, tool := range []string{"grep", "find_files", "list_files"} {
		if !denyEnv.Touches(PathCall(tool, "innocent.txt", ws)) {
			t.Errorf("deny read_file(.env) must bind %s", tool)
		}
	}
	if denyEnv.Touches(PathCall("write_file", ".env", ws)) {
		t.Error("a read_file rule is not about writing")
	}
	if mustParse(t, "read_file").Touches(PathCall("grep", ".env", ws)) {
		t.Error("a bare read_file rule is about the tool, not about grep")
	}
	allowDocs := mustParse(t, "write_file(docs/**)")
	if !allowDocs.Matches(PathCall("write_file", "docs/a.md", ws)) || !allowDocs.Matches(PathCall("write_file", "docs/new.md", ws)) {
		t.Error("allow write_file(docs/**) covers docs")
	}
	if allowDocs.Matches(PathCall("write_file", "docs/link.md", ws)) {
		t.Error("allow write_file(docs/**) must not carry a write through a link to src/main.go")
	}
}

// TestFetchDomainRules: web_fetch(domain:HOST), Claude Code's
// WebFetch(domain:…), names the host a fetch reaches: exactly, or every
// host below with "*."; the look-alikes an attacker would use (a longer
// name ending the same, the host in the path or the user part) are not
// covered, and a URL whose host cannot be read is touched by every deny.
func TestFetchDomainRules(t *testing.T) {
	fetch := func(u string) Call {
		args, _ := json.Marshal(map[string]string{"url": u})
		return CallOf(FetchTool, args, "/work/app")
	}
	exact := mustParse(t, "web_fetch(domain:Docs.Example.com.)")
	below := mustParse(t, "web_fetch(domain:*.example.com)")
	if exact.String() != "web_fetch(domain:docs.example.com)" || below.String() != "web_fetch(domain:*.example.com)" {
		t.Fatalf("parsed as %s and %s", exact, below)
	}
	for u, want := range map[string][2]bool{ // exact, below
		"https://docs.example.com/page":       {true, true},
		"https://DOCS.example.com:8443/x":     {true, true},
		"https://example.com/":                {false, false},
		"https://evildocs.example.com/":       {false, true},
		"https://docs.example.com.evil.test/": {false, false},
		"https://evil.test/docs.example.com":  {false, false},
		"https://docs.example.com@evil.test/": {false, false},
		"https://notexample.com/":             {false, false},
		"http://[::1]/docs.example.com":       {false, false},
	} {
		c := fetch(u)
		if got := [2]bool{exact.Matches(c), below.Matches(c)}; got != want {
			t.Errorf("%s: matches %v, want %v", u, got, want)
		}
	}
	if c := fetch("::not a url"); exact.Matches(c) || !exact.Touches(c) {
		t.Error("a URL without a readable host must fail closed: no allow, every deny")
	}
	if !Covered([]Rule{exact}, fetch("https://docs.example.com/a")) || Covered([]Rule{exact}, fetch("https://example.org/")) {
		t.Error("Covered")
	}
	for _, bad := range []string{"web_fetch(example.com)", "web_fetch(domain:)", "web_fetch(domain:a..b)", "web_fetch(domain:x/y)", "web_fetch(domain:*)"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) should fail", bad)
		}
	}
}
