package config

import (
	"path/filepath"

	"github.com/seed-e4e525a6/baton/agenttypes"
)

// openCodeLayers read the top-level permission of OpenCode's config
// files as rules: the person's (in OpenCode's user folder), and the
// project's, which adds only deny and ask until the folder is trusted,
// like every file a repository hands baton. Rules baton cannot read are
// skipped with a notice; a file that cannot be read at all is reported
// once, by the agent loader, which reads its agent blocks.
func (c *Config) openCodeLayers(dir, workspace string, project, trusted bool) []permissionLayer {
	base, inside, source := dir, "", "~/.config/opencode/"
	if project {
		base, inside, source = workspace, workspace, ""
	}
	if base == "" {
		return nil
	}
	var layers []permissionLayer
	for _, name := range agenttypes.OpenCodeConfigNames {
		cfg, err := agenttypes.ReadOpenCodeConfig(inside, filepath.Join(base, name), nil)
		if err != nil || cfg.Permission.IsZero() && len(cfg.PermissionWarnings) == 0 {
			continue
		}
		for _, w := range cfg.PermissionWarnings {
			c.Notices = append(c.Notices, w.String())
		}
		file := permissionsFile{Allow: c.openCodeRules(cfg.Permission.Allow, source+name),
			Ask: c.openCodeRules(cfg.Permission.Ask, source+name), Deny: c.openCodeRules(cfg.Permission.Deny, source+name)}
		layers = append(layers, permissionLayer{file: file, source: source + name, narrowOnly: project && !trusted})
	}
	return layers
}

// openCodeRules checks rules converted from OpenCode's names; one baton
// cannot read (a webfetch URL pattern) is skipped with a notice.
func (c *Config) openCodeRules(list []string, source string) *ruleList {
	out := ruleList{}
	for _, text := range list {
		r, err := checkRule(text)
		if err != nil {
			c.Notices = append(c.Notices, source+": skipped permission: "+err.Error())
			continue
		}
		out = append(out, r)
	}
	return &out
}
