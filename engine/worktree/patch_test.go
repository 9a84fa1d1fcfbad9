package worktree

import (
	"strings"
	"testing"
)

// TestUnreadableDiffIsAnError: git output the review cannot read (a
// hunk header out of shape, a raw line with fields missing) is an error,
// never a review of something else.
func TestUnreadableDiffIsAnError(t *testing.T) {
	for _, header := range []string{"@@ -1,2 +1,2", "@@ -1,2 1,2 @@", "@@ -x,2 +1,2 @@", "@@ -1,y +1,2 @@", "@@ -1,2 +z @@"} {
		var f File
		if err := parseUnified("--- a/f\n+++ b/f\n"+header+"\n-a\n+b\n", &f); err == nil || !strings.Contains(err.Error(), "bad hunk header") {
			t.Errorf("%q: %v", header, err)
		}
	}
	var f File
	if err := parseUnified("@@ -3 +3 @@ func\n-a\n+b\n\\ No newline at end of file\n", &f); err != nil || len(f.Hunks) != 1 || f.Hunks[0].OldLines != 1 || !f.Hunks[0].Lines[1].NoEOL {
		t.Errorf("a one-line hunk: %+v, %v", f, err)
	}
	if _, err := parseRaw(":100644 100644 abc\x00f.txt\x00"); err == nil || !strings.Contains(err.Error(), "unexpected raw diff line") {
		t.Errorf("a short raw line: %v", err)
	}
}
