package config

import (
	"strings"
	"testing"
)

// TestEveryLeafRefusesWhatItCannotBe: each kind of value a config file
// holds refuses a value of the wrong type or out of range, naming the key
// and what it expects; the user's file stops the start, a project's key
// is dropped with the same words.
func TestEveryLeafRefusesWhatItCannotBe(t *testing.T) {
	for toml, want := range map[string]string{
		"model = 3":         `model: expected a non-empty string, got 3`,
		"theme = 4":         `theme: expected a theme name, got 4`,
		"base_url = 5":      `base_url: expected an http(s) URL, got 5`,
		"notify = \"loud\"": `notify: expected "bell", "title" or "off", got "loud"`,
		"[models.m]\ninput_per_million = \"free\"":                  `models.m.input_per_million: expected a non-negative number, got "free"`,
		"[context]\nauto_compact_at = \"half\"":                     `context.auto_compact_at: expected a number from 0 to 1`,
		"[subagents]\nisolation = \"vm\"":                           `subagents.isolation: expected "auto", "worktree" or "shared", got "vm"`,
		"[subagents]\ndeny = \"run_command\"":                       `subagents.deny: expected a list of tool names`,
		"[subagents]\nallow = [\"rm\"]":                             `subagents.allow: expected a list of tool names`,
		"[sandbox]\nwritable = [\"relative/dir\"]":                  `sandbox.writable: expected a list of absolute paths or paths under "~/"`,
		"[sandbox]\nreadable = \"/x\"":                              `sandbox.readable: expected a list of absolute paths`,
		"[sandbox]\nnetwork = true":                                 `sandbox.network: expected "on" or "off", got true`,
		"[permissions]\ndeny = [3]":                                 `permissions.deny: expected a list of rules`,
		"[permissions]\nask = \"run_command\"":                      `permissions.ask: expected a list of rules`,
		"[mcp.servers.x]\ncommand = \"c\"\nargs = \"-v\"":           `expected a list of strings`,
		"[mcp.servers.x]\ncommand = \"c\"\nenv = 3":                 `expected a table of strings`,
		"[mcp.servers.x]\nurl = \"https://h\"\nheaders = { A = 1 }": `expected a table of strings`,
		"mcp = { servers = { x = 3 } }":                             `expected a table ([mcp.servers.NAME])`,
		"hooks = { Stop = 3 }":                                      `hooks`,
		"[models]\naliases = 3":                                     `models.aliases: expected a table ([models.aliases]) of model names`,
		"[models.aliases]\nsonnet = 3":                              `models.aliases.sonnet: expected a model name, got 3`,
	} {
		_, err := newConfigWorld(t, toml, "").load(t, Overrides{}, nil)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want %q", toml, err, want)
		}
	}
}

// TestUnknownKeysNameTheirTable: a typo in any table is refused with the
// keys that table takes.
func TestUnknownKeysNameTheirTable(t *testing.T) {
	for toml, want := range map[string]string{
		"[subagents]\nisolate = \"auto\"":             `(known in [subagents]: allow, deny, isolation, runner, wake_on_result, verify)`,
		"[sessions]\nprune = 3":                       `(known in [sessions]: prune_after_days, cleanup)`,
		"[sandbox]\nmodes = \"off\"":                  `(known in [sandbox]: mode, writable, readable, allow_sockets, network)`,
		"[permissions]\nallowed = [\"grep\"]":         `(known in [permissions]: allow, ask, deny)`,
		"[mcp.servers.x]\ncommand = \"c\"\nargv = []": `unknown key "argv" (known: command, args, env, url, headers, type, call_timeout_s)`,
		"[models.m.deep]\nx = 1":                      `unknown key "models.m.deep" (known in [models."m"]: context_window`,
	} {
		_, err := newConfigWorld(t, toml, "").load(t, Overrides{}, nil)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want %q", toml, err, want)
		}
	}
}
