package config

import (
	"errors"
	"fmt"
	"io/fs"
	"reflect"
	"strings"

	"github.com/BurntSushi/toml"
)

// fileConfig is one config file as written. Every field is a pointer (or a
// map) so that "not set here" stays distinguishable from a zero value and
// the next layer down shows through.
type fileConfig struct {
	Model         *text        `toml:"model"`
	BaseURL       *endpointURL `toml:"base_url"`
	APIKey        *text        `toml:"api_key"`
	SubagentModel *text        `toml:"subagent_model"`
	Theme         *themeName   `toml:"theme"`
	MaxSteps      *count       `toml:"max_steps"`
	Yolo          *flag        `toml:"yolo"`
	Allow         *ruleList    `toml:"allow"`
	Notify        *notifyMode  `toml:"notify"`
	// Mouse false leaves the mouse to the terminal, for plain selection.
	Mouse *flag `toml:"mouse"`

	Limits    limitsFile                `toml:"limits"`
	Subagents subagentsFile             `toml:"subagents"`
	Models    map[string]modelPriceFile `toml:"models"`
	Sessions  sessionsFile              `toml:"sessions"`
	Network   networkFile               `toml:"network"`
	Sandbox   sandboxFile               `toml:"sandbox"`
	Runners   runnersFile               `toml:"runner"`
	WebFetch  webFetchFile              `toml:"web_fetch"`
	MCP       mcpFile                   `toml:"mcp"`
	// Permissions is kept in its own struct and file (permissions.go).
	Permissions permissionsFile `toml:"permissions"`
	Context     contextFile     `toml:"context"`
	// Hooks is [hooks], in Claude Code's shape (hooks.go).
	Hooks *hooksTable `toml:"hooks"`

	// aliases is [models.aliases], read apart from the typed decode.
	aliases map[string]string
	// hasAliases says the file has a [models.aliases] table.
	hasAliases bool
	// refused are the notices of a project file: keys it held that no
	// repository may set, or that were wrong; they are removed, and the
	// person told.
	refused []string
}

// limitsFile is the [limits] table.
type limitsFile struct {
	ChildStepsReadOnly *count `toml:"child_steps_read_only"`
	ChildStepsWrite    *count `toml:"child_steps_write"`
	ChildTimeoutS      *count `toml:"child_timeout_s"`
	// ChildTokens, ChildCostUSD, TurnTokens and TurnCostUSD are the
	// budgets of a child and of the main agent's turn.
	ChildTokens      *count `toml:"child_tokens"`
	ChildCostUSD     *price `toml:"child_cost_usd"`
	TurnTokens       *count `toml:"turn_tokens"`
	TurnCostUSD      *price `toml:"turn_cost_usd"`
	ToolOutputChars  *count `toml:"tool_output_chars"`
	ResultChars      *count `toml:"result_chars"`
	MaxConcurrent    *count `toml:"max_concurrent"`
	MaxDepth         *count `toml:"max_depth"`
	CommandTimeoutS  *count `toml:"command_timeout_s"`
	ReplyMaxBytes    *count `toml:"reply_max_bytes"`
	ContextFileBytes *count `toml:"context_file_bytes"`
	// WakeTurnsPerPrompt and BackgroundPerPrompt bound what background
	// results may set off after one prompt of the person.
	WakeTurnsPerPrompt  *count `toml:"wake_turns_per_prompt"`
	BackgroundPerPrompt *count `toml:"background_per_prompt"`
	// VerifyTimeoutS bounds a verify run on a child's change.
	VerifyTimeoutS *count `toml:"verify_timeout_s"`
}

// subagentsFile is the [subagents] table: the tool policy applied on top
// of every type, and what a background child's result does.
type subagentsFile struct {
	Allow     *toolList      `toml:"allow"`
	Deny      *toolList      `toml:"deny"`
	Isolation *isolationMode `toml:"isolation"`
	// Runner places children whose agent file names no runner.
	Runner *runnerName `toml:"runner"`
	// WakeOnResult = false keeps a background child's result, when no
	// turn runs, for the next prompt instead of a turn of its own.
	WakeOnResult *flag `toml:"wake_on_result"`
	// Verify is the command, or the list of commands, run on a worktree
	// child's change when it finishes.
	Verify *commandList `toml:"verify"`
}

// modelPriceFile is one [models."<id>"] table: prices, a context window
// and whether it takes images, for models the catalogue does not know,
// such as local ones.
type modelPriceFile struct {
	ContextWindow    *count `toml:"context_window"`
	InputPerMillion  *price `toml:"input_per_million"`
	OutputPerMillion *price `toml:"output_per_million"`
	Images           *flag  `toml:"images"`
}

// contextFile is the [context] table.
type contextFile struct {
	// AutoCompactAt is the context fill at which the conversation is
	// summarised before the next turn; 0 never.
	AutoCompactAt *fraction `toml:"auto_compact_at"`
}

// sessionsFile is the [sessions] table.
type sessionsFile struct {
	PruneAfterDays *count       `toml:"prune_after_days"`
	Cleanup        *cleanupMode `toml:"cleanup"`
}

// configScope says whose file it is; the project file travels with the
// repository, so it may not hold secrets or switch approvals off.
type configScope int

const (
	userScope configScope = iota
	projectScope
)

// loadConfigFile reads and validates one config file. A missing file is
// an empty config; display is the path used in messages. A problem in the
// user's file is an error; a project file's never is (see
// parseProjectConfig).
func loadConfigFile(path, display string, scope configScope, themes []string) (fileConfig, error) {
	var fc fileConfig
	if path == "" {
		return fc, nil
	}
	data, err := readConfigData(path, display, scope)
	if errors.Is(err, fs.ErrNotExist) {
		return fc, nil
	}
	if err != nil {
		return fc, err
	}
	if scope == projectScope {
		fc, notices := parseProjectConfig(string(data), display, themes)
		for _, why := range refuseProjectKeys(&fc) {
			notices = append(notices, display+": "+why)
		}
		fc.refused = notices
		return fc, nil
	}
	fc, err = parseUserConfig(string(data), themes)
	if err != nil {
		return fc, fmt.Errorf("%s: %w", display, err)
	}
	return fc, nil
}

// parseUserConfig decodes and checks the person's own config file: any
// problem is an error, the first one found. themes are the theme names
// the file may choose from (nil: any).
func parseUserConfig(doc string, themes []string) (fileConfig, error) {
	var fc fileConfig
	var raw map[string]any
	md, err := toml.Decode(doc, &raw)
	if err == nil {
		err = checkTables(raw)
	}
	aliases, hasAliases := map[string]string(nil), false
	if err == nil {
		aliases, hasAliases, err = readAliases(raw)
	}
	if err == nil {
		md, err = toml.Decode(doc, &fc)
	}
	if err != nil {
		return fc, errors.New(decodeMessage(md, err))
	}
	delete(fc.Models, aliasesKey)
	fc.aliases, fc.hasAliases = aliases, hasAliases
	if undecoded := withoutHookKeys(withoutAliasKeys(md.Undecoded())); len(undecoded) > 0 {
		return fc, errors.New(unknownKeyMessage(undecoded[0]))
	}
	if fc.Theme != nil {
		if err := checkTheme(*fc.Theme, themes); err != nil {
			return fc, fmt.Errorf("theme: %w", err)
		}
	}
	return fc, checkMaxima(&fc)
}

// checkTables makes sure the tables are tables before the typed decode,
// whose own wording for "limits = 3" names Go types.
func checkTables(raw map[string]any) error {
	for _, name := range []string{"limits", "subagents", "models", "sessions", "network", "sandbox", "web_fetch", "mcp", "permissions", "context", "hooks"} {
		v, ok := raw[name]
		if !ok {
			continue
		}
		table, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: %w", name, valueError{"a table ([" + name + "])", v})
		}
		if name != "models" {
			continue
		}
		for id, m := range table {
			if _, ok := m.(map[string]any); !ok && id != aliasesKey {
				return fmt.Errorf("models.%s: %w", toml.Key{id}, valueError{fmt.Sprintf("a table ([models.%s])", toml.Key{id}), m})
			}
		}
	}
	return nil
}

// decodeMessage words a TOML failure: a syntax error by line, a bad value
// by the key that holds it.
func decodeMessage(md toml.MetaData, err error) string {
	var pe toml.ParseError
	if !errors.As(err, &pe) {
		return err.Error()
	}
	// Syntax errors come back before any key is known; value errors from
	// our UnmarshalTOML methods carry the key they were decoding.
	if len(md.Keys()) == 0 || pe.LastKey == "" {
		return fmt.Sprintf("line %d: %s", pe.Position.Line, pe.Message)
	}
	return fmt.Sprintf("%s: %s", pe.LastKey, pe.Message)
}

// unknownKeyMessage names the key and the keys its table accepts, so a
// typo is fixed without opening the docs.
func unknownKeyMessage(key toml.Key) string {
	var known []string
	where := ""
	switch {
	case len(key) == 1:
		known = tomlKeys(fileConfig{})
	case key[0] == "limits":
		known, where = tomlKeys(limitsFile{}), " in [limits]"
	case key[0] == "subagents":
		known, where = tomlKeys(subagentsFile{}), " in [subagents]"
	case key[0] == "sessions":
		known, where = tomlKeys(sessionsFile{}), " in [sessions]"
	case key[0] == "context":
		known, where = tomlKeys(contextFile{}), " in [context]"
	case key[0] == "network":
		known, where = tomlKeys(networkFile{}), " in [network]"
	case key[0] == "sandbox":
		known, where = tomlKeys(sandboxFile{}), " in [sandbox]"
	case key[0] == "web_fetch":
		known, where = tomlKeys(webFetchFile{}), " in [web_fetch]"
	case key[0] == "mcp" && len(key) == 2:
		known, where = tomlKeys(mcpFile{}), " in [mcp]"
	case key[0] == "permissions":
		known, where = tomlKeys(permissionsFile{}), " in [permissions]"
	case key[0] == "models" && len(key) == 3:
		known, where = tomlKeys(modelPriceFile{}), fmt.Sprintf(" in [models.%q]", key[1])
	default:
		return fmt.Sprintf("unknown key \"%s\"", key)
	}
	return fmt.Sprintf("unknown key \"%s\" (known%s: %s)", key, where, strings.Join(known, ", "))
}

// tomlKeys lists the keys a table struct accepts, in declaration order.
func tomlKeys(table any) []string {
	t := reflect.TypeOf(table)
	keys := make([]string, 0, t.NumField())
	for i := range t.NumField() {
		if tag := t.Field(i).Tag.Get("toml"); tag != "" {
			keys = append(keys, tag)
		}
	}
	return keys
}
