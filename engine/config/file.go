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
	// Agents are the [agents.NAME] tables: agent types written in the
	// config rather than in files (agents.go).
	Agents map[string]agentTable `toml:"agents"`

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
	if undecoded := withoutAgentKeys(withoutHookKeys(withoutAliasKeys(md.Undecoded()))); len(undecoded) > 0 {
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
	top := reflect.TypeFor[fileConfig]()
	for i := range top.NumField() {
		f := top.Field(i)
		name := f.Tag.Get("toml")
		v, ok := raw[name]
		if name == "" || !ok || !isTable(f.Type) {
			continue
		}
		table, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: %w", name, valueError{"a table ([" + name + "])", v})
		}
		if f.Type.Kind() != reflect.Map {
			continue
		}
		for id, m := range table { // a table of tables, such as [models."<id>"]
			if _, ok := m.(map[string]any); !ok && id != aliasesKey {
				return fmt.Errorf("%s.%s: %w", name, toml.Key{id}, valueError{fmt.Sprintf("a table ([%s.%s])", name, toml.Key{id}), m})
			}
		}
	}
	return nil
}

// isTable says whether a field of fileConfig is written as a table: a
// struct of keys, a map of tables by name, or a table read whole.
func isTable(t reflect.Type) bool {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Kind() == reflect.Struct || t.Kind() == reflect.Map
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
	table, where, ok := tableOf(key[:len(key)-1])
	if !ok {
		return fmt.Sprintf("unknown key \"%s\"", key)
	}
	if where != "" {
		where = " in [" + where + "]"
	}
	return fmt.Sprintf("unknown key \"%s\" (known%s: %s)", key, where, strings.Join(tomlKeys(table), ", "))
}

// tableOf follows path from the top of a config file through the tables
// of fileConfig's fields, and a map's tables under any name: the table
// it names, written as a config file heads it. ok is false unless the
// path ends at a table of keys we decode (a table read whole, such as
// [hooks], is its own to check).
func tableOf(path toml.Key) (table reflect.Type, where string, ok bool) {
	t := reflect.TypeFor[fileConfig]()
	var heading []string
	for _, name := range path {
		switch t.Kind() {
		case reflect.Struct:
			f, found := fieldByTag(t, name)
			if !found {
				return nil, "", false
			}
			t = f.Type
			heading = append(heading, name)
		case reflect.Map:
			t = t.Elem()
			heading = append(heading, fmt.Sprintf("%q", name))
		default:
			return nil, "", false
		}
	}
	if t.Kind() != reflect.Struct || reflect.PointerTo(t).Implements(reflect.TypeFor[toml.Unmarshaler]()) {
		return nil, "", false
	}
	return t, strings.Join(heading, "."), true
}

// fieldByTag finds the field of a table struct that holds a key.
func fieldByTag(t reflect.Type, key string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		if f := t.Field(i); f.Tag.Get("toml") == key {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// tomlKeys lists the keys a table struct accepts, in declaration order.
func tomlKeys(t reflect.Type) []string {
	keys := make([]string, 0, t.NumField())
	for i := range t.NumField() {
		if tag := t.Field(i).Tag.Get("toml"); tag != "" {
			keys = append(keys, tag)
		}
	}
	return keys
}
