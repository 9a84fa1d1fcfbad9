//go:build linux

package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// scrubHelperEnv makes the test binary the process whose key is scrubbed.
const scrubHelperEnv = "BATON_TEST_SCRUB_HELPER"

// TestScrubKeyHelper is the child of TestScrubKeyHidesTheKeyFromProc: it
// scrubs the key it was started with and prints what
// /proc/self/environ shows afterwards.
func TestScrubKeyHelper(t *testing.T) {
	if os.Getenv(scrubHelperEnv) == "" {
		t.Skip("helper process only")
	}
	if !scrubKey(os.Getenv(keyVar)) {
		t.Fatal("scrubKey reported failure")
	}
	shown, err := os.ReadFile("/proc/self/environ")
	if err != nil {
		t.Fatal(err)
	}
	os.Stdout.Write(shown)
}

// TestScrubKeyHidesTheKeyFromProc starts a real process with the key in
// its initial environment: after scrubKey its /proc/PID/environ holds the
// variable with its value overwritten, and the other variables intact.
func TestScrubKeyHidesTheKeyFromProc(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestScrubKeyHelper$")
	const key = "sk-scrub-me-77"
	cmd.Env = []string{scrubHelperEnv + "=1", keyVar + "=" + key, "KEEP=this"}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("helper: %v\n%s", err, out)
	}
	env := string(out)
	if strings.Contains(env, key) {
		t.Fatalf("the key is still in /proc/self/environ: %q", env)
	}
	if !strings.Contains(env, keyVar+"="+strings.Repeat("*", len(key))+"\x00") || !strings.Contains(env, "KEEP=this") {
		t.Fatalf("environ after the scrub: %q", env)
	}
}
