package sandbox

import (
	"os"
	"path/filepath"
	"testing"
)

// The person's caches are found where their tools would look: Go's
// module cache from GOMODCACHE, else the first GOPATH entry, else the
// home's; GOPROXY from the environment, else from the file `go env -w`
// writes (GOENV, else under XDG_CONFIG_HOME or the home); cargo's from
// CARGO_HOME, else the home's. Relative paths, which would name a folder
// of the workspace, are never taken.
func TestPersonCaches(t *testing.T) {
	home, xdg, bare := t.TempDir(), t.TempDir(), t.TempDir()
	goenv := func(dir, text string) string {
		path := filepath.Join(dir, "go", "env")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	fromXDG := goenv(xdg, "GOFLAGS=-mod=mod\n  GOPROXY=https://proxy.corp.example,direct \n")
	fromHome := goenv(filepath.Join(home, ".config"), "GOPROXY=https://home.example\n")
	for _, c := range []struct {
		name string
		env  map[string]string
		want PersonCaches
	}{
		{"the home only", map[string]string{"HOME": home},
			PersonCaches{GoModCache: filepath.Join(home, "go", "pkg", "mod"), GoProxy: "https://home.example", CargoHome: filepath.Join(home, ".cargo")}},
		{"XDG's go env", map[string]string{"HOME": home, "XDG_CONFIG_HOME": xdg},
			PersonCaches{GoModCache: filepath.Join(home, "go", "pkg", "mod"), GoProxy: "https://proxy.corp.example,direct", CargoHome: filepath.Join(home, ".cargo")}},
		{"GOENV named", map[string]string{"HOME": home, "GOENV": fromXDG, "GOPATH": "/opt/go" + string(filepath.ListSeparator) + "/more"},
			PersonCaches{GoModCache: "/opt/go/pkg/mod", GoProxy: "https://proxy.corp.example,direct", CargoHome: filepath.Join(home, ".cargo")}},
		{"set outright", map[string]string{"HOME": home, "GOENV": fromHome, "GOMODCACHE": "/cache/mod/", "GOPROXY": "off", "CARGO_HOME": "/opt/cargo"},
			PersonCaches{GoModCache: "/cache/mod", GoProxy: "off", CargoHome: "/opt/cargo"}},
		{"relative paths", map[string]string{"HOME": "home", "GOPATH": "gopath", "GOMODCACHE": "mod", "CARGO_HOME": "cargo", "GOENV": "env"},
			PersonCaches{}},
		{"no go env file", map[string]string{"HOME": bare},
			PersonCaches{GoModCache: filepath.Join(bare, "go", "pkg", "mod"), CargoHome: filepath.Join(bare, ".cargo")}},
	} {
		if got := (Settings{Env: c.env}).personCaches(); got != c.want {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, got, c.want)
		}
	}
}
