package sandbox

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
)

// A build cache is code waiting to run: Go does not re-check an extracted
// module against go.sum, cargo trusts what it unpacked, pip installs the
// wheels it cached. A command that could write the person's caches could
// plant code in the person's next build of any project, outside the
// sandbox. So commands get caches of their own, in a folder only
// sandboxed commands use, and read the person's without writing them.

// PersonCaches are where the person's own caches are, for commands to
// read from.
type PersonCaches struct {
	// GoModCache is the person's Go module cache: its download folder
	// serves commands as a module proxy, so builds need no network for
	// modules the person already has.
	GoModCache string `json:"go_mod_cache"`
	// GoProxy is the person's GOPROXY ($GOPROXY, else `go env -w`'s),
	// tried after that folder.
	GoProxy string `json:"go_proxy"`
	// CargoHome is the person's CARGO_HOME, whose config commands read.
	CargoHome string `json:"cargo_home"`
}

// cacheVars are the variables pointed at the commands' own caches, by
// the subfolder each gets.
var cacheVars = []struct{ name, dir string }{
	{"XDG_CACHE_HOME", "xdg"}, {"GOCACHE", "go-build"}, {"GOMODCACHE", "go-mod"}, {"CARGO_HOME", "cargo"},
	{"npm_config_cache", "npm"}, {"YARN_CACHE_FOLDER", "yarn"}, {"npm_config_store_dir", "pnpm-store"},
	{"BUN_INSTALL_CACHE_DIR", "bun"}, {"PIP_CACHE_DIR", "pip"}, {"UV_CACHE_DIR", "uv"},
	{"POETRY_CACHE_DIR", "pypoetry"}, {"PRE_COMMIT_HOME", "pre-commit"}, {"DENO_DIR", "deno"},
	{"GRADLE_USER_HOME", "gradle"}, {"NUGET_PACKAGES", "nuget"}, {"COMPOSER_CACHE_DIR", "composer"},
}

// defaultGoProxy is Go's own default GOPROXY.
const defaultGoProxy = "https://proxy.golang.org,direct"

// personCaches finds the person's caches in the environment.
func (s Settings) personCaches() PersonCaches {
	var c PersonCaches
	switch gopath := firstPath(s.Env["GOPATH"]); {
	case filepath.IsAbs(s.Env["GOMODCACHE"]):
		c.GoModCache = filepath.Clean(s.Env["GOMODCACHE"])
	case gopath != "":
		c.GoModCache = filepath.Join(gopath, "pkg", "mod")
	case filepath.IsAbs(s.Env["HOME"]):
		c.GoModCache = filepath.Join(s.Env["HOME"], "go", "pkg", "mod")
	}
	c.GoProxy = s.Env["GOPROXY"]
	if c.GoProxy == "" {
		c.GoProxy = s.goEnvFile("GOPROXY")
	}
	switch {
	case filepath.IsAbs(s.Env["CARGO_HOME"]):
		c.CargoHome = filepath.Clean(s.Env["CARGO_HOME"])
	case filepath.IsAbs(s.Env["HOME"]):
		c.CargoHome = filepath.Join(s.Env["HOME"], ".cargo")
	}
	return c
}

// goEnvFile reads one setting from the file `go env -w` writes.
func (s Settings) goEnvFile(name string) string {
	path := s.Env["GOENV"]
	if !filepath.IsAbs(path) {
		if path = s.userPath(".config/go/env"); path == "" {
			return ""
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), name+"="); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// cacheEnv is environ with the cache variables pointed at the commands'
// own caches; environ as it is when p gives commands none.
func (p Policy) cacheEnv(environ []string) []string {
	if p.Caches == "" || p.Mode != WorkspaceWrite {
		return environ
	}
	set := map[string]string{}
	for _, v := range cacheVars {
		set[v.name] = filepath.Join(p.Caches, v.dir)
	}
	if p.PersonCaches.GoModCache != "" {
		download := filepath.Join(p.PersonCaches.GoModCache, "cache", "download")
		if info, err := os.Stat(download); err == nil && info.IsDir() {
			proxy := p.PersonCaches.GoProxy
			if proxy == "" {
				proxy = defaultGoProxy
			}
			set["GOPROXY"] = "file://" + filepath.ToSlash(download) + "," + proxy
		}
	}
	out := make([]string, 0, len(environ)+len(set))
	var mavenOpts string
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		switch {
		case name == "MAVEN_OPTS":
			mavenOpts = value
		case set[name] != "", strings.EqualFold(name, "npm_config_cache"), strings.EqualFold(name, "npm_config_store_dir"):
		default:
			out = append(out, kv)
		}
	}
	for _, v := range cacheVars {
		out = append(out, v.name+"="+set[v.name])
	}
	if proxy, ok := set["GOPROXY"]; ok {
		out = append(out, "GOPROXY="+proxy)
	}
	return append(out, "MAVEN_OPTS="+strings.TrimSpace(mavenOpts+" -Dmaven.repo.local="+filepath.Join(p.Caches, "m2")))
}

// prepareCaches makes the commands' cache folder, private to the person,
// and links the person's cargo configuration into the commands' own
// CARGO_HOME, where cargo looks for it (a link the command may replace,
// but whose target it cannot write).
func (p Policy) prepareCaches() {
	if p.Caches == "" || p.Mode != WorkspaceWrite {
		return
	}
	cargo := filepath.Join(p.Caches, "cargo")
	if err := os.MkdirAll(cargo, 0o700); err != nil {
		return
	}
	if p.PersonCaches.CargoHome == "" {
		return
	}
	for _, name := range []string{"config.toml", "config"} {
		target := filepath.Join(p.PersonCaches.CargoHome, name)
		if _, err := os.Stat(target); err == nil {
			if _, err := os.Lstat(filepath.Join(cargo, name)); os.IsNotExist(err) {
				_ = os.Symlink(target, filepath.Join(cargo, name))
			}
		}
	}
}
