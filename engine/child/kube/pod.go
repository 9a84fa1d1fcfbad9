package kube

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/seed-e4e525a6/baton/engine/child/process"
	"github.com/seed-e4e525a6/baton/engine/worktree"
)

// PodSubcommand is the hidden first argument that makes baton a child in
// a pod: baton-kube's Job runs `baton __kube-child <agent>`.
const PodSubcommand = "__kube-child"

// The pod's environment, as baton-kube sets it.
const (
	// EnvSpec names the file holding the spec line (the Secret's).
	EnvSpec = "BATON_SPEC_FILE"
	// EnvBundleParts lists the files holding the workspace bundle's
	// parts (one ConfigMap each), in order, separated as in PATH;
	// EnvBundleDigest names the file (the Secret's) holding their
	// BundleDigest; EnvRef is the ref in the bundle.
	EnvBundleParts  = "BATON_BUNDLE_PARTS"
	EnvBundleDigest = "BATON_BUNDLE_DIGEST_FILE"
	EnvRef          = "BATON_BUNDLE_REF"
	// EnvWorkspace is the folder the workspace is checked out in: the
	// same path as on baton's machine, so the spec's paths hold.
	EnvWorkspace = "BATON_WORKSPACE"
	// EnvHidden is a folder the child's commands may not read (where the
	// Secret is mounted).
	EnvHidden = "BATON_HIDDEN"
	// EnvInput, when set, names a file (a FIFO) baton's answers and
	// controls come from instead of the standard input: for a pod
	// runtime that attaches none (podman kube play).
	EnvInput = "BATON_INPUT_FILE"
)

// maxSpec bounds the spec file.
const maxSpec = 64 << 20

// PodMain serves a child in a pod and exits when the process was started
// as one; otherwise it returns. Call it first thing in main, right after
// sandbox.Main.
func PodMain() {
	if len(os.Args) >= 2 && os.Args[1] == PodSubcommand {
		os.Exit(ServePod(os.Getenv, os.Stdin, os.Stdout, os.Stderr))
	}
}

// ServePod checks the workspace out of its bundle, runs the child with
// the spec of the file getenv names (then what comes on in: answers and
// controls), and ends, when the child changed files, with a report
// holding its result bundle. Its exit status is Serve's, 2 when the
// workspace or spec could not be set up.
func ServePod(getenv func(string) string, in io.Reader, out, errs io.Writer) int {
	ws := getenv(EnvWorkspace)
	spec, err := readSpec(getenv(EnvSpec), getenv(EnvHidden))
	if err == nil {
		err = checkout(ws, getenv(EnvBundleParts), getenv(EnvBundleDigest), getenv(EnvRef))
	}
	if path := getenv(EnvInput); path != "" && err == nil {
		var f *os.File
		if f, err = os.Open(path); err == nil {
			defer f.Close()
			in = f
		}
	}
	if err != nil {
		fmt.Fprintf(errs, "baton kube child: %v\n", err)
		return 2
	}
	code := process.Serve(io.MultiReader(bytes.NewReader(spec), in), out, errs)
	bundle, err := result(ws, getenv(EnvRef))
	if err != nil {
		fmt.Fprintf(errs, "baton kube child: %v\n", err)
		return 1
	}
	if bundle != nil {
		if _, err := out.Write(MarshalReport(Report{Bundle: bundle})); err != nil {
			return 1
		}
	}
	return code
}

// readSpec reads the spec line and hides the folder it came from from
// the child's commands.
func readSpec(file, hidden string) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("read the spec: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxSpec+1))
	if err != nil || len(data) > maxSpec {
		return nil, fmt.Errorf("read the spec: %v (at most %d MiB)", err, maxSpec>>20)
	}
	if hidden != "" {
		if data, err = hide(data, hidden); err != nil {
			return nil, fmt.Errorf("read the spec: %w", err)
		}
	}
	return append(bytes.TrimRight(data, "\n"), '\n'), nil
}

// hide adds folder to the sandbox's hidden paths in the spec line.
func hide(line []byte, folder string) ([]byte, error) {
	var top, sp, box, policy map[string]json.RawMessage
	var hidden []string
	if err := json.Unmarshal(line, &top); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(top["spec"], &sp); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(sp["toolbox"], &box); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(box["sandbox"], &policy); err != nil {
		return nil, err
	}
	if raw, ok := policy["hidden"]; ok {
		if err := json.Unmarshal(raw, &hidden); err != nil {
			return nil, err
		}
	}
	var err error
	set := func(m map[string]json.RawMessage, key string, v any) {
		if err == nil {
			m[key], err = json.Marshal(v)
		}
	}
	set(policy, "hidden", append(hidden, folder))
	set(box, "sandbox", policy)
	set(sp, "toolbox", box)
	set(top, "spec", sp)
	if err != nil {
		return nil, err
	}
	return json.Marshal(top)
}

// podGit runs git in the pod's workspace with the repository's hooks and
// helpers off: the child's commands could have set them.
func podGit(dir string, args ...string) (string, error) {
	safe := []string{"-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", "-c", "commit.gpgSign=false",
		"-c", "user.name=baton", "-c", "user.email=baton@localhost", "-c", "safe.directory=*"}
	cmd := exec.CommandContext(context.Background(), "git", append(safe, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_CONFIG_NOSYSTEM=1", "LC_ALL=C")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s: %v: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(stdout.String()), nil
}

// checkout makes ws a repository holding the bundle's ref, checked out,
// once the bundle's parts joined match their digest.
func checkout(ws, parts, digest, ref string) error {
	bundle, err := joinBundle(parts, digest, "")
	if err != nil {
		return err
	}
	// The child's commands never see the joined copy.
	defer os.Remove(bundle)
	if err := os.MkdirAll(ws, 0o755); err != nil {
		return fmt.Errorf("make the workspace: %w", err)
	}
	steps := [][]string{
		{"init", "-q"},
		{"fetch", "-q", "--no-tags", bundle, ref + ":" + ref},
		{"checkout", "-q", "--detach", ref},
	}
	for _, args := range steps {
		if _, err := podGit(ws, args...); err != nil {
			return fmt.Errorf("check the workspace out: %w", err)
		}
	}
	return nil
}

// result commits what the child changed and returns it as a bundle of
// worktree.ResultRef since the workspace's ref, or nil when it changed
// nothing.
func result(ws, ref string) ([]byte, error) {
	if _, err := podGit(ws, "add", "-A", "--", "."); err != nil {
		return nil, fmt.Errorf("record the result: %w", err)
	}
	if _, err := podGit(ws, "commit", "-q", "--allow-empty", "--no-verify", "-m", "baton child's change"); err != nil {
		return nil, fmt.Errorf("record the result: %w", err)
	}
	tree, err := podGit(ws, "rev-parse", "HEAD^{tree}")
	if err != nil {
		return nil, fmt.Errorf("record the result: %w", err)
	}
	if base, err := podGit(ws, "rev-parse", ref+"^{tree}"); err == nil && base == tree {
		return nil, nil
	}
	if _, err := podGit(ws, "update-ref", worktree.ResultRef, "HEAD"); err != nil {
		return nil, fmt.Errorf("record the result: %w", err)
	}
	file, err := os.CreateTemp("", "baton-result-*.bundle")
	if err != nil {
		return nil, fmt.Errorf("record the result: %w", err)
	}
	name := file.Name()
	file.Close()
	defer os.Remove(name)
	if _, err := podGit(ws, "bundle", "create", "-q", name, worktree.ResultRef, "^"+ref); err != nil {
		return nil, fmt.Errorf("bundle the result: %w", err)
	}
	return os.ReadFile(name)
}
