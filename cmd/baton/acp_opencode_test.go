package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// openCodeBinary is OpenCode's binary, installed from npm by a pinned
// lockfile.
const openCodeBinary = "testdata/opencode/node_modules/opencode-linux-x64/bin/opencode"

// TestBatonRunsOpenCodeAsAnACPChild: a headless baton delegates to an
// agent type whose agent file runs OpenCode (`opencode acp`, from npm)
// as an ACP child against a scripted OpenAI-compatible endpoint named in
// OpenCode's own config, with its own key. Its edit asks baton's rules,
// its answer is the child's result, and the person's key never reaches
// it.
func TestBatonRunsOpenCodeAsAnACPChild(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("the pinned OpenCode build is Linux x64's")
	}
	bin, err := filepath.Abs(openCodeBinary)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		if _, err := exec.LookPath("npm"); err != nil {
			t.Skip("npm is not installed: this test runs OpenCode, installed from npm")
		}
		t.Fatal("OpenCode is not installed: run npm ci --prefix cmd/baton/testdata/opencode (.ci/run does)")
	}
	t.Parallel()
	var keys []string
	var keysMu sync.Mutex
	openCode := llmtest.NewServer(t, func(req *llmtest.Request, w *llmtest.Writer) {
		keysMu.Lock()
		keys = append(keys, req.Header.Get("Authorization"))
		keysMu.Unlock()
		results := toolResultsOf(req)
		switch {
		case len(req.Body.Tools) == 0:
			w.Text("A title") // OpenCode names its session
		case len(results) == 0:
			w.ToolCalls(llmtest.Call{ID: "c1", Name: "write", Args: `{"filePath":"note.txt","content":"from opencode\n"}`})
		default:
			w.Text("OPENCODE-SAYS the note is written")
		}
	})
	outer := llmtest.NewServer(t, func(req *llmtest.Request, w *llmtest.Writer) {
		results := toolResultsOf(req)
		if len(results) == 0 {
			w.ToolCalls(llmtest.Call{ID: "t1", Name: "task", Args: `{"description":"ask OpenCode","prompt":"write a note","subagent_type":"opencode"}`})
			return
		}
		w.Text("outer got: " + results[0])
	})
	config, ocHome, ocTmp := t.TempDir(), t.TempDir(), t.TempDir()
	ocConfig := filepath.Join(ocHome, "opencode.json")
	cfg, _ := json.Marshal(map[string]any{
		"provider": map[string]any{"scripted": map[string]any{"npm": "@ai-sdk/openai-compatible", "name": "Scripted",
			"options": map[string]any{"baseURL": openCode.URL, "apiKey": "sk-opencodes-own-key"}, "models": map[string]any{"m": map[string]any{"name": "m"}}}},
		"model": "scripted/m", "small_model": "scripted/m", "autoupdate": false, "share": "disabled",
		"permission": map[string]any{"edit": "ask", "bash": "ask"}})
	writeFile(t, ocConfig, string(cfg))
	acp, _ := json.Marshal(map[string]any{"command": bin, "args": []string{"acp", "--pure"}, "env": map[string]string{
		"OPENCODE_CONFIG": ocConfig, "OPENCODE_DISABLE_MODELS_FETCH": "1", "OPENCODE_DISABLE_AUTOUPDATE": "1",
		"HOME": ocHome, "XDG_CONFIG_HOME": filepath.Join(ocHome, ".config"), "XDG_DATA_HOME": filepath.Join(ocHome, ".data"),
		"XDG_CACHE_HOME": filepath.Join(ocHome, ".cache"), "XDG_STATE_HOME": filepath.Join(ocHome, ".state"),
		// OpenCode (a Bun binary) unpacks a 5 MiB library into its temporary
		// folder at every start and leaves it there: this test's folder.
		"TMPDIR": ocTmp}})
	writeFile(t, filepath.Join(config, "baton", "agents", "opencode.md"),
		"---\nname: opencode\ndescription: OpenCode, over ACP\nacp: "+string(acp)+"\n---\n")
	r := runIn(t, context.Background(), []string{"OPENAI_BASE_URL=" + outer.URL, "OPENAI_API_KEY=" + personsKey, "XDG_CONFIG_HOME=" + config}, "",
		"-p", "delegate to OpenCode", "--allow", "task", "--allow", "write_file(note.txt)", "--output-format", "json")
	var res struct {
		Result string `json:"result"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || r.code != exitOK {
		t.Fatalf("exit %d, %v, stdout %s\nstderr: %s", r.code, err, r.stdout, r.stderr)
	}
	if !strings.HasPrefix(res.Result, "outer got: OPENCODE-SAYS the note is written") {
		t.Errorf("the outer baton's answer: %q", res.Result)
	}
	if data, err := os.ReadFile(filepath.Join(r.workspace, "note.txt")); err != nil || string(data) != "from opencode\n" {
		t.Errorf("note.txt: %q, %v", data, err)
	}
	keysMu.Lock()
	defer keysMu.Unlock()
	for _, k := range keys {
		if k != "Bearer sk-opencodes-own-key" {
			t.Errorf("OpenCode sent Authorization %q, not its own key", k)
		}
	}
}
