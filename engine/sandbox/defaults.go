package sandbox

import (
	"path/filepath"
	"strings"
)

// credentials are the paths under $HOME that hold secrets: keys, tokens,
// cookies, and shell start-up files and histories, where API keys are
// often exported or typed. Commands can neither read nor write them.
var credentials = []string{
	".ssh", ".aws", ".azure", ".gnupg", ".netrc", ".authinfo", ".authinfo.gpg",
	".docker", ".kube", ".oci", ".git-credentials", ".config/git/credentials",
	".pypirc", ".npmrc", ".yarnrc", ".yarnrc.yml", ".gem/credentials",
	".cargo/credentials", ".cargo/credentials.toml", ".m2/settings.xml", ".gradle/gradle.properties",
	".config/gh", ".config/hub", ".config/gcloud", ".config/doctl", ".config/hcloud", ".config/op",
	".config/rclone", ".config/configstore", ".config/github-copilot",
	".terraform.d/credentials.tfrc.json", ".vault-token", ".pgpass", ".my.cnf", ".s3cfg", ".boto",
	".password-store", ".local/share/keyrings", ".mozilla", ".config/google-chrome",
	".config/chromium", ".config/BraveSoftware", ".wrangler",
	".bashrc", ".bash_profile", ".bash_login", ".profile", ".zshrc", ".zshenv", ".zprofile",
	".zlogin", ".config/fish", ".bash_history", ".zsh_history", ".python_history",
	".node_repl_history", ".psql_history", ".mysql_history",
}

// caches are the build caches under $HOME commands may write, beside the
// ones the environment names (GOCACHE, GOMODCACHE, XDG_CACHE_HOME…).
var caches = []string{
	".cache", ".npm", ".cargo/registry", ".cargo/git", "go/pkg/mod",
	".m2/repository", ".gradle/caches", ".pnpm-store", ".bun/install/cache",
}

// Settings are the person's choices, from the [sandbox] config table and
// --no-sandbox, plus the environment the defaults are resolved from.
type Settings struct {
	Mode Mode
	// Reason says who chose Off, for the header.
	Reason string
	// Writable and Readable are [sandbox] writable and readable.
	Writable, Readable []string
	// Hidden are baton's own folders (config, transcripts) to hide on
	// top of the credentials.
	Hidden []string
	// Env resolves HOME, TMPDIR and the cache variables.
	Env map[string]string
}

// Policy resolves the settings for a workspace into the main agent's
// policy (network on); sub-agents derive theirs with WithNetwork.
func (s Settings) Policy(workspace string) Policy {
	mode := s.Mode
	if mode == "" {
		mode = WorkspaceWrite
	}
	home := s.Env["HOME"]
	p := Policy{Mode: mode, Workspace: workspace, Network: true, Reason: s.Reason}
	tmp := s.Env["TMPDIR"]
	if !filepath.IsAbs(tmp) {
		tmp = "/tmp"
	}
	p.Writable = append(p.Writable, tmp)
	if mode == WorkspaceWrite {
		for _, v := range []string{"GOCACHE", "GOMODCACHE", "XDG_CACHE_HOME", "CARGO_HOME", "npm_config_cache", "PIP_CACHE_DIR"} {
			if dir := s.Env[v]; filepath.IsAbs(dir) {
				p.Writable = append(p.Writable, dir)
			}
		}
		if gopath := firstPath(s.Env["GOPATH"]); gopath != "" {
			p.Writable = append(p.Writable, filepath.Join(gopath, "pkg", "mod"))
		}
		if filepath.IsAbs(home) {
			for _, c := range caches {
				p.Writable = append(p.Writable, filepath.Join(home, c))
			}
		}
		p.ExtraWritable = absolute(s.Writable)
	}
	p.ExtraReadable = absolute(s.Readable)
	if filepath.IsAbs(home) {
		for _, c := range credentials {
			p.Hidden = append(p.Hidden, filepath.Join(home, c))
		}
	}
	p.Hidden = append(p.Hidden, absolute(s.Hidden)...)
	return p
}

// firstPath is the first entry of a GOPATH-style list.
func firstPath(list string) string {
	first, _, _ := strings.Cut(list, string(filepath.ListSeparator))
	if filepath.IsAbs(first) {
		return first
	}
	return ""
}

// absolute keeps the absolute paths of list, cleaned.
func absolute(list []string) []string {
	var out []string
	for _, p := range list {
		if filepath.IsAbs(p) {
			out = append(out, filepath.Clean(p))
		}
	}
	return out
}
