package tools

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// denySecrets withholds every file named secret*, as a deny rule on
// read_file(**/secret*) would.
func denySecrets(abs string) (string, bool) {
	if strings.HasPrefix(filepath.Base(abs), "secret") {
		return "read_file(**/secret*)", true
	}
	return "", false
}

// TestWithheldFilesNeverReachTheModel: grep, find_files and list_files
// leave out every file the person's rules withhold, say how many and by
// which rule, and never name them; a folder is still walked into, so
// its other files are found.
func TestWithheldFilesNeverReachTheModel(t *testing.T) {
	ws := newTree(t, map[string]string{
		"secret.env": "TOKEN=hunter2\n", "conf/secret.yaml": "token: hunter2\n", "conf/app.yaml": "token: none\n",
		"secrets/app.txt": "token: folder\n",
	})
	ctx := WithWithhold(context.Background(), denySecrets)
	for _, c := range []struct {
		tool string
		args map[string]any
		find string
	}{
		{"grep", map[string]any{"pattern": "token"}, "app.yaml"},
		{"find_files", map[string]any{"pattern": "**/*"}, "app.yaml"},
		{"list_files", map[string]any{"depth": 3}, "app.yaml"},
	} {
		args, _ := json.Marshal(c.args)
		res, err := toolByName(t, ws, Limits{}, c.tool).Run(ctx, args)
		if err != nil {
			t.Fatalf("%s: %v", c.tool, err)
		}
		if strings.Contains(res.Output, "hunter2") || strings.Contains(res.Output, "secret.env") || strings.Contains(res.Output, "secret.yaml") {
			t.Errorf("%s showed a withheld file:\n%s", c.tool, res.Output)
		}
		if !strings.Contains(res.Output, "[note: 2 files left out by the rule read_file(**/secret*)]") || !strings.Contains(res.Output, c.find) || !strings.Contains(res.Output, "secrets/") && c.tool != "grep" {
			t.Errorf("%s:\n%s", c.tool, res.Output)
		}
	}
}
