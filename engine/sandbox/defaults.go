package sandbox

import (
	"path/filepath"
	"strings"
)

// credentials are the paths under $HOME that hold secrets: keys, tokens,
// cookies, other agents' logins and transcripts, and shell start-up files
// and histories, where API keys are often exported or typed. Commands can
// neither read nor write them. Paths under .config/, .local/share/ and
// .cache/ move with $XDG_CONFIG_HOME, $XDG_DATA_HOME and $XDG_CACHE_HOME.
// Most also lie in the hidden part of the home folder; they are listed
// for the ones inside folders builds need (~/.cargo, ~/.cache, ~/.m2…)
// and for when the person makes the home folder readable.
var credentials = []string{
	".ssh", ".aws", ".azure", ".gnupg", ".netrc", ".authinfo", ".authinfo.gpg",
	".docker", ".kube", ".oci", ".git-credentials", ".config/git/credentials",
	".pypirc", ".npmrc", ".yarnrc", ".yarnrc.yml", ".bunfig.toml", ".gem/credentials", ".bundle",
	".cargo/credentials", ".cargo/credentials.toml", ".m2/settings.xml", ".m2/settings-security.xml",
	".gradle/gradle.properties", ".ivy2/.credentials", ".sbt/credentials",
	".config/gh", ".config/hub", ".config/glab-cli", ".config/gcloud", ".config/doctl", ".config/hcloud", ".config/op",
	".config/rclone", ".config/configstore", ".config/github-copilot", ".config/pnpm", ".config/pypoetry/auth.toml",
	".config/containers/auth.json", ".config/sops", ".config/age", ".config/stripe", ".config/netlify",
	".config/.wrangler", ".config/cloudflared", ".cloudflared", ".config/vercel", ".local/share/com.vercel.cli",
	".terraform.d/credentials.tfrc.json", ".vault-token", ".pgpass", ".my.cnf", ".s3cfg", ".boto",
	".password-store", ".local/share/keyrings", ".mozilla", ".config/google-chrome",
	".config/chromium", ".config/BraveSoftware", ".wrangler", ".fly", ".supabase", ".databrickscfg",
	".pulumi/credentials.json", ".huggingface", ".cache/huggingface/token", ".cache/huggingface/stored_tokens",
	".codex", ".claude", ".claude.json", ".claude.json.backup", ".gemini", ".continue", ".aider.conf.yml",
	".config/opencode", ".local/share/opencode", ".cursor", ".config/Code/User/globalStorage",
	".bashrc", ".bash_profile", ".bash_login", ".profile", ".zshrc", ".zshenv", ".zprofile",
	".zlogin", ".config/fish", ".local/share/fish", ".bash_history", ".zsh_history", ".python_history",
	".node_repl_history", ".psql_history", ".mysql_history", ".sqlite_history", ".lesshst", ".viminfo",
}

// credentialVars name files or folders of credentials wherever the
// person keeps them; each hides the path it holds.
var credentialVars = []string{
	"CODEX_HOME", "CLAUDE_CONFIG_DIR", "DOCKER_CONFIG", "REGISTRY_AUTH_FILE", "KUBECONFIG",
	"AWS_SHARED_CREDENTIALS_FILE", "AWS_CONFIG_FILE", "GOOGLE_APPLICATION_CREDENTIALS", "AZURE_CONFIG_DIR",
	"SOPS_AGE_KEY_FILE", "HF_TOKEN_PATH", "PULUMI_HOME", "GNUPGHOME", "PASSWORD_STORE_DIR",
	"HISTFILE", "NETRC", "NPM_CONFIG_USERCONFIG", "npm_config_userconfig", "CARGO_REGISTRIES_CRATES_IO_TOKEN_FILE",
}

// runtimeCredentials are credentials under $XDG_RUNTIME_DIR.
var runtimeCredentials = []string{"containers/auth.json", "gnupg", "keyring", "ssh-agent.socket"}

// homeForBuilds are the parts of $HOME commands may read: toolchains,
// package managers, the caches they read, and the configuration builds
// consult. The rest of the home folder is hidden, except the way to the
// workspace, the workspace's neighbours, the folders on $PATH and the
// toolchain folders the environment names (GOPATH, CARGO_HOME, …).
var homeForBuilds = []string{
	".cache", ".local/bin", ".local/lib", ".local/share/pnpm", ".local/share/uv", ".local/share/mise",
	".local/share/fnm", ".local/share/virtualenvs", ".local/share/pipx", ".local/pipx", ".local/share/gem",
	".local/state/nix", ".nix-profile", ".nix-defexpr",
	"go", "sdk", ".cargo", ".rustup", ".npm", ".nvm", ".volta", ".fnm", ".bun", ".deno", ".node-gyp", ".yarn",
	".pyenv", ".rbenv", ".rvm", ".gem", ".rye", ".conda", ".condarc", "miniconda3", "anaconda3", "miniforge3",
	"mambaforge", ".julia", ".ghcup", ".cabal", ".stack", ".opam", ".elan", ".mix", ".hex", ".pub-cache",
	".dotnet", ".nuget", ".m2", ".gradle", ".ivy2", ".sbt", ".sdkman", ".jdks", ".konan", ".swiftpm", ".asdf",
	".tool-versions", ".proto", ".pixi", ".gitconfig", ".gitignore", ".gitignore_global", ".config/git",
	".config/go", ".config/pip", ".pip", ".config/uv", ".config/pypoetry", ".config/mise", ".config/yarn",
	".editorconfig",
}

// toolchainVars name toolchain and package folders builds read, kept
// readable when they lie in the home folder.
var toolchainVars = []string{
	"GOPATH", "GOROOT", "GOMODCACHE", "CARGO_HOME", "RUSTUP_HOME", "NVM_DIR", "PYENV_ROOT", "RBENV_ROOT",
	"VOLTA_HOME", "BUN_INSTALL", "DENO_INSTALL", "DENO_DIR", "SDKMAN_DIR", "JAVA_HOME", "ANDROID_HOME",
	"ANDROID_SDK_ROOT", "GRADLE_USER_HOME", "PNPM_HOME", "ASDF_DATA_DIR", "MISE_DATA_DIR", "JULIA_DEPOT_PATH",
	"VIRTUAL_ENV", "CONDA_PREFIX", "PIPX_HOME", "UV_PYTHON_INSTALL_DIR",
}

// Settings are the person's choices, from the [sandbox] config table and
// --no-sandbox, plus the environment the defaults are resolved from.
type Settings struct {
	Mode Mode
	// Reason says who chose Off, for the header.
	Reason string
	// Writable and Readable are [sandbox] writable and readable;
	// AllowSockets is [sandbox] allow_sockets.
	Writable, Readable, AllowSockets []string
	// Hidden are baton's own folders (config, transcripts) to hide on
	// top of the credentials.
	Hidden []string
	// Env is the process environment: HOME, TMPDIR, the XDG folders, the
	// toolchain variables, PATH.
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
	if !filepath.IsAbs(home) || filepath.Clean(home) == "/" {
		home = ""
	}
	p := Policy{Mode: mode, Workspace: workspace, Network: true, Reason: s.Reason}
	tmp := s.Env["TMPDIR"]
	if !filepath.IsAbs(tmp) {
		tmp = "/tmp"
	}
	p.Writable = append(p.Writable, tmp)
	if mode == WorkspaceWrite {
		if cache := s.userPath(".cache"); cache != "" {
			p.Caches = filepath.Join(cache, "baton", "sandbox")
			p.Writable = append(p.Writable, p.Caches)
		}
		p.ExtraWritable = absolute(s.Writable)
		p.PersonCaches = s.personCaches()
	}
	p.ExtraReadable = absolute(s.Readable)
	p.AllowSockets = absolute(s.AllowSockets)
	if home != "" {
		p.Home = filepath.Clean(home)
		for _, rel := range homeForBuilds {
			p.HomeReadable = append(p.HomeReadable, s.userPath(rel))
		}
		for _, v := range append(toolchainVars, "PATH") {
			p.HomeReadable = append(p.HomeReadable, filepath.SplitList(s.Env[v])...)
		}
		p.HomeReadable = absolute(p.HomeReadable)
		for _, c := range credentials {
			p.Hidden = append(p.Hidden, s.userPath(c))
		}
	}
	for _, v := range credentialVars {
		p.Hidden = append(p.Hidden, filepath.SplitList(s.Env[v])...)
	}
	if hf := s.Env["HF_HOME"]; hf != "" {
		p.Hidden = append(p.Hidden, filepath.Join(hf, "token"), filepath.Join(hf, "stored_tokens"))
	}
	if run := s.Env["XDG_RUNTIME_DIR"]; filepath.IsAbs(run) {
		for _, c := range runtimeCredentials {
			p.Hidden = append(p.Hidden, filepath.Join(run, c))
		}
	}
	p.Hidden = absolute(append(p.Hidden, s.Hidden...))
	return p
}

// userPath places a path relative to the home folder, moving the
// .config/, .local/share/ and .cache/ ones where the XDG variables say;
// "" without a home.
func (s Settings) userPath(rel string) string {
	for _, x := range []struct{ prefix, v string }{{".config", "XDG_CONFIG_HOME"}, {".local/share", "XDG_DATA_HOME"}, {".cache", "XDG_CACHE_HOME"}} {
		rest, ok := strings.CutPrefix(rel, x.prefix)
		if dir := s.Env[x.v]; ok && (rest == "" || rest[0] == '/') && filepath.IsAbs(dir) {
			return filepath.Join(dir, rest)
		}
	}
	home := s.Env["HOME"]
	if !filepath.IsAbs(home) {
		return ""
	}
	return filepath.Join(home, rel)
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
