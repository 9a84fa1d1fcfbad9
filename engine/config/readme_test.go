package config

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/llm"
)

// readmeLine is one key of the README's config example, with the table
// it sits in and whether the README calls it an example.
type readmeLine struct {
	table, text string
	example     bool
}

// readmeConfigExample reads the README's TOML example: every key line,
// the commented-out ones left out.
func readmeConfigExample(t *testing.T) []readmeLine {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "Config files are TOML")
	if !ok {
		t.Fatal("the README has no config section")
	}
	_, block, _ := strings.Cut(rest, "```toml\n")
	block, _, _ = strings.Cut(block, "```")
	var out []readmeLine
	table, tableExample := "", false
	for _, line := range strings.Split(block, "\n") {
		code, comment, _ := strings.Cut(line, "#")
		code, comment = strings.TrimSpace(code), strings.TrimSpace(comment)
		example := strings.HasPrefix(comment, "example")
		switch {
		case code == "":
		case strings.HasPrefix(code, "["):
			table, tableExample = code, example
		default:
			out = append(out, readmeLine{table: table, text: code, example: example || tableExample})
		}
	}
	if len(out) < 20 {
		t.Fatalf("read only %d keys from the README's example", len(out))
	}
	return out
}

// effective is what a run takes from cfg: zero values replaced by the
// defaults the engine and the UI fill in.
func effective(cfg Config) Config {
	cfg.Limits = cfg.Limits.WithDefaults()
	t := &cfg.Network.Timeouts
	if t.Connect == 0 {
		t.Connect = llm.DefaultTimeouts.Connect
	}
	if t.FirstByte == 0 {
		t.FirstByte = llm.DefaultTimeouts.FirstByte
	}
	if t.Idle == 0 {
		t.Idle = llm.DefaultTimeouts.Idle
	}
	if cfg.Network.RetryAfterMax == 0 {
		cfg.Network.RetryAfterMax = engine.DefaultRetryAfterMax
	}
	if cfg.Theme == "" {
		cfg.Theme = "dark"
	}
	if cfg.Isolation == "" {
		cfg.Isolation = child.IsolationAuto
	}
	if cfg.Runner == "" {
		cfg.Runner = child.RunnerLocal
	}
	return cfg
}

// The README's config example says which values are defaults: each line
// it does not call an example changes nothing when set, and each it does
// changes something.
func TestReadmeConfigExampleMarksItsDefaults(t *testing.T) {
	defaults, err := newConfigWorld(t, "", "").load(t, Overrides{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := effective(defaults)
	for _, l := range readmeConfigExample(t) {
		doc := l.text + "\n"
		if l.table != "" {
			doc = l.table + "\n" + doc
		}
		cfg, err := newConfigWorld(t, doc, "").load(t, Overrides{}, nil)
		if err != nil {
			t.Errorf("%s %s: %v", l.table, l.text, err)
			continue
		}
		same := reflect.DeepEqual(effective(cfg), want)
		switch {
		case l.example && same:
			t.Errorf("the README calls %s %q an example, but it is the default", l.table, l.text)
		case !l.example && !same:
			t.Errorf("the README shows %s %q as the default, but it changes the config:\n%+v\nwant\n%+v", l.table, l.text, effective(cfg), want)
		}
	}
}
