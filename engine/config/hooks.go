package config

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"

	"github.com/BurntSushi/toml"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/hooks"
	"github.com/seed-e4e525a6/baton/engine/skills"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// hooksTable is a config file's [hooks] table: Claude Code's hooks object
// written in TOML ([[hooks.PreToolUse]] with matcher and [[…hooks]]
// entries), kept as JSON for the one parser both forms share.
type hooksTable struct {
	raw json.RawMessage
}

// UnmarshalTOML implements toml.Unmarshaler.
func (h *hooksTable) UnmarshalTOML(v any) error {
	if _, ok := v.(map[string]any); !ok {
		return valueError{"a table ([[hooks.PreToolUse]] …)", v}
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("hooks: %w", err)
	}
	h.raw = raw
	return nil
}

// loadHooks gathers the hooks: the person's (~/.claude/settings.json and
// the user config), and the project's (.claude/settings.json,
// .claude/settings.local.json, .baton/config.toml), which run only in a
// trusted folder: a repository's hook is code execution. Until then
// they are withheld, and the trust card lists them.
func (c *Config) loadHooks(src Sources, user, project fileConfig) error {
	found := hooks.Discover(src.Env["HOME"], src.Workspace)
	c.Notices = append(c.Notices, found.Notices...)
	own := found.User
	if user.Hooks != nil {
		list, notes, err := hooks.ParseTable(user.Hooks.raw, UserPath(src.Env), false)
		if err != nil {
			return err
		}
		own, c.Notices = append(own, list...), append(c.Notices, notes...)
	}
	theirs := found.Project
	if project.Hooks != nil {
		list, notes, err := hooks.ParseTable(project.Hooks.raw, filepath.ToSlash(ProjectFile), true)
		if err != nil {
			c.Notices = append(c.Notices, err.Error()+"; its hooks are not run")
		}
		theirs, c.Notices = append(theirs, list...), append(c.Notices, notes...)
	}
	c.Hooks = own
	if src.Trusted {
		c.Hooks = append(c.Hooks, theirs...)
	} else {
		c.WithheldHooks = theirs
	}
	return nil
}

// loadSkills reads the skill folders of the project and the person. A
// project's skills are prompts, not permissions: they load whether or
// not the folder is trusted, and the trust card lists them.
func (c *Config) loadSkills(src Sources) {
	home := src.Env["HOME"]
	configHome := ""
	switch dir := src.Env["XDG_CONFIG_HOME"]; {
	case filepath.IsAbs(dir):
		configHome = dir
	case home != "":
		configHome = filepath.Join(home, ".config")
	}
	c.Skills = skills.Load(skills.Options{ProjectDir: src.Workspace, HomeDir: home, ConfigHome: configHome, BatonDir: UserDir(src.Env)})
}

// HookEnv is the environment hooks start from: baton's own, less its
// secrets (the API key reaches the endpoint and nothing else).
func HookEnv(env map[string]string) []string {
	list := make([]string, 0, len(env))
	for _, k := range slices.Sorted(maps.Keys(env)) {
		list = append(list, k+"="+env[k])
	}
	return tools.WithoutSecrets(list)
}

// SkillNotices tell the person about skills that could not be used: each
// one headless, where there is no /skills to read them in, and a count
// in the TUI.
func SkillNotices(c *skills.Catalog, headless bool) []string {
	broken := c.Broken()
	if headless {
		var out []string
		for _, w := range append(broken, c.Warnings()...) {
			out = append(out, w.String())
		}
		return out
	}
	if len(broken) > 0 {
		return []string{fmt.Sprintf("%s could not be loaded; /skills names them", event.Plural(len(broken), "skill"))}
	}
	return nil
}

// withoutHookKeys drops the keys inside [hooks] from the undecoded ones:
// the hooks parser reads that table whole and names its own problems.
func withoutHookKeys(keys []toml.Key) []toml.Key {
	return slices.DeleteFunc(keys, func(k toml.Key) bool { return len(k) >= 2 && k[0] == "hooks" })
}
