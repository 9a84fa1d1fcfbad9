package sandbox

import (
	"archive/zip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// personGoModule puts example.com/lib v1.0.0 in a Go module cache the
// way `go mod download` leaves it: the download folder (a module proxy
// layout) and the extracted tree. It returns the extracted source file.
func personGoModule(t *testing.T, modcache string) string {
	t.Helper()
	dl := filepath.Join(modcache, "cache", "download", "example.com", "lib", "@v")
	must(t, os.MkdirAll(dl, 0o755))
	write(t, filepath.Join(dl, "list"), "v1.0.0\n")
	write(t, filepath.Join(dl, "v1.0.0.info"), `{"Version":"v1.0.0","Time":"2024-01-01T00:00:00Z"}`)
	write(t, filepath.Join(dl, "v1.0.0.mod"), "module example.com/lib\n")
	f, err := os.Create(filepath.Join(dl, "v1.0.0.zip"))
	must(t, err)
	z := zip.NewWriter(f)
	for name, body := range map[string]string{"go.mod": "module example.com/lib\n", "lib.go": "package lib\n\nconst Version = 1\n"} {
		w, err := z.Create("example.com/lib@v1.0.0/" + name)
		must(t, err)
		_, err = w.Write([]byte(body))
		must(t, err)
	}
	must(t, z.Close())
	must(t, f.Close())
	src := filepath.Join(modcache, "example.com", "lib@v1.0.0", "lib.go")
	must(t, os.MkdirAll(filepath.Dir(src), 0o755))
	write(t, src, "package lib\n\nconst Version = 1\n")
	write(t, filepath.Join(filepath.Dir(src), "go.mod"), "module example.com/lib\n")
	return src
}

// TestCommandsCannotPlantInThePersonsCaches is the attack: a repository's
// test script appends code to a module in the person's Go module cache
// (Go never re-checks an extracted module against go.sum, so the person's
// next build of any project would compile it), drops a `git` into
// $CARGO_HOME/bin (on the person's PATH) and an entry into the person's
// build cache. Unsandboxed each lands; sandboxed each is refused, while
// the command's own caches are writable and a Go module the person has
// is served to a network-off command from the person's cache.
func TestCommandsCannotPlantInThePersonsCaches(t *testing.T) {
	b := newBox(t)
	modcache := filepath.Join(b.home, "go", "pkg", "mod")
	src := personGoModule(t, modcache)
	cargoBin := filepath.Join(b.home, ".cargo", "bin")
	gocache := filepath.Join(b.home, ".cache", "go-build")
	must(t, os.MkdirAll(cargoBin, 0o755))
	must(t, os.MkdirAll(gocache, 0o755))
	write(t, filepath.Join(b.home, ".cargo", "config.toml"), "[net]\nretry = 1\n")
	p := Settings{Env: map[string]string{"HOME": b.home, "TMPDIR": b.tmp}}.Policy(b.ws)
	plant := strings.Join([]string{
		"echo 'func init() { panic(\"planted\") }' >> " + src,
		"printf '#!/bin/sh\\necho planted\\n' > " + cargoBin + "/git",
		"touch " + gocache + "/planted",
	}, "; ")

	out, _ := b.run(t, p, plant+"; echo \"own: $GOCACHE $GOMODCACHE $CARGO_HOME $XDG_CACHE_HOME\"; "+
		"mkdir -p \"$GOCACHE/00\" \"$GOMODCACHE/x\" \"$CARGO_HOME/registry\" \"$XDG_CACHE_HOME/pip\" && echo own caches writable; "+
		"cat \"$CARGO_HOME/config.toml\"")
	if got := strings.Count(out, "Permission denied"); got != 3 {
		t.Errorf("%d of 3 plants refused:\n%s", got, out)
	}
	if !strings.Contains(out, "own caches writable") || !strings.Contains(out, "retry = 1") {
		t.Errorf("the command's own caches, with the person's cargo config:\n%s", out)
	}
	for _, v := range []string{"go-build", "go-mod", "cargo", "xdg"} {
		if !strings.Contains(out, filepath.Join(p.Caches, v)) {
			t.Errorf("the command's caches are not under %s: %s", p.Caches, out)
		}
	}
	if data, _ := os.ReadFile(src); strings.Contains(string(data), "planted") {
		t.Fatal("code was planted in the person's module cache")
	}
	for _, f := range []string{filepath.Join(cargoBin, "git"), filepath.Join(gocache, "planted")} {
		if _, err := os.Stat(f); err == nil {
			t.Fatalf("%s was planted", f)
		}
	}

	off := p
	off.Mode = Off
	b.run(t, off, plant)
	if data, _ := os.ReadFile(src); !strings.Contains(string(data), "planted") {
		t.Fatal("unsandboxed, the plant should land (else this test proves nothing)")
	}

	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not installed: the module proxy fallback is not tested")
	}
	write(t, filepath.Join(b.ws, "go.mod"), "module ws\n\ngo 1.21\n")
	out, code := b.run(t, p.WithNetwork(false), goBin+" mod download -json example.com/lib@v1.0.0", "GOSUMDB=off", "GOFLAGS=", "GOTOOLCHAIN=local")
	if code != 0 {
		t.Fatalf("a network-off command could not take the module from the person's cache: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(p.Caches, "go-mod", "example.com", "lib@v1.0.0", "lib.go")); err != nil {
		t.Fatalf("the module did not land in the command's own cache: %v\n%s", err, out)
	}
}
