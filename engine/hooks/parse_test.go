package hooks

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// A settings file from a repository is read for what baton can run and
// says what it cannot: hooks of other types or events, entries without a
// command, bad timeouts and if conditions, a matcher that does not
// compile; JSON that is not a settings object is an error naming the
// file; too many hooks are cut at the bound with a notice.
func TestParseSettingsSaysWhatItCannotRun(t *testing.T) {
	data := `{"model":"x","hooks":{
		"PreToolUse":[{"matcher":"Bash","hooks":[
			{"type":"command","command":"./guard.sh","timeout":5,"if":"Bash(git push:*)"},
			{"command":"./implied-type.sh","timeout":99999},
			{"type":"prompt","prompt":"think"},
			{"type":"command","command":"  "},
			{"type":"command","command":"x","timeout":-1},
			{"type":"command","command":"x","if":"Bash("},
			"not an object"]},
			{"matcher":"(","hooks":[{"command":"never"}]}],
		"Elsewhere":[{"hooks":[{"command":"x"}]}]}}`
	hooks, notices, err := ParseSettings([]byte(data), ".claude/settings.json", true)
	if err != nil {
		t.Fatal(err)
	}
	if len(hooks) != 2 || hooks[0].Command != "./guard.sh" || hooks[0].Timeout != 5*time.Second || hooks[0].ifRule == nil ||
		hooks[1].Timeout != MaxTimeout || !hooks[0].Project || hooks[0].Matcher != "Bash" {
		t.Errorf("hooks %+v", hooks)
	}
	all := strings.Join(notices, "\n")
	for _, want := range []string{"baton has no Elsewhere event", `type "prompt" hooks are not run`, "a command hook without a command",
		"timeout must be a positive number", `if "Bash("`, "not a hook entry", "hooks.PreToolUse[1]"} {
		if !strings.Contains(all, want) {
			t.Errorf("notices lack %q:\n%s", want, all)
		}
	}
	for _, bad := range []string{`[1,2]`, `{"hooks":[1]}`, `{"hooks":{"PreToolUse":{"matcher":"x"}}}`} {
		if _, _, err := ParseSettings([]byte(bad), "s.json", false); err == nil || !strings.HasPrefix(err.Error(), "s.json") {
			t.Errorf("ParseSettings(%s): %v", bad, err)
		}
	}
	if hooks, notices, err := ParseSettings([]byte(`{"hooks":null}`), "s.json", false); hooks != nil || notices != nil || err != nil {
		t.Error("a null hooks table is not empty")
	}

	var many []string
	for i := range maxHooksPerFile + 5 {
		many = append(many, fmt.Sprintf(`{"command":"h%d"}`, i))
	}
	table, _ := json.Marshal(map[string]any{"hooks": map[string]any{"Stop": []any{map[string]any{"hooks": json.RawMessage("[" + strings.Join(many, ",") + "]")}}}})
	hooks, notices, err = ParseSettings(table, "big.json", true)
	if err != nil || len(hooks) != maxHooksPerFile || len(notices) != 1 || !strings.Contains(notices[0], "the rest are not run") {
		t.Errorf("too many hooks: %d kept, %v, %v", len(hooks), notices, err)
	}
}
