package kube_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/child/kube"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/worktree"
)

// podSetup is what baton-kube's Job gives the pod: the bundle's parts and
// digest, the spec file in a folder of its own, and a FIFO for baton's
// answers (as podman kube play has no attached input).
type podSetup struct {
	env   map[string]string
	ws    string
	input string
}

// newPod lays a pod's files out for a child of names whose model is srv.
func newPod(t *testing.T, bundle []byte, srv *llmtest.Server, names ...string) *podSetup {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for i, p := range kube.SplitBundle(bundle) {
		path := filepath.Join(dir, strconv.Itoa(i), "part")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, p, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	secret := filepath.Join(dir, "secret")
	if err := os.Mkdir(secret, 0o700); err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(dir, "ws")
	toolNames, _ := json.Marshal(names)
	spec := fmt.Sprintf(`{"spec":{"meta":{"agent":"a1","parent":"main","number":1},"prompt":"change the notes","model":"m","max_steps":4,`+
		`"timeout":60000000000,"workspace":%q,"toolbox":{"names":%s,"limits":{"output_chars":50000},"sandbox":{"hidden":["/run/other"]}},`+
		`"endpoint":{"base_url":%q,"api_key":"k"},"tag":"ckubepod"}}`, ws, toolNames, srv.URL)
	if err := os.WriteFile(filepath.Join(secret, "spec.json"), []byte(spec+"\n\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(secret, "workspace.json"), kube.DigestOf(bundle).Marshal(), 0o600); err != nil {
		t.Fatal(err)
	}
	input := filepath.Join(dir, "input")
	if err := syscall.Mkfifo(input, 0o600); err != nil {
		t.Fatal(err)
	}
	return &podSetup{ws: ws, input: input, env: map[string]string{
		kube.EnvSpec: filepath.Join(secret, "spec.json"), kube.EnvBundleParts: kube.BundleParts(paths),
		kube.EnvBundleDigest: filepath.Join(secret, "workspace.json"), kube.EnvRef: partsRef, kube.EnvWorkspace: ws,
		kube.EnvHidden: secret, kube.EnvInput: input,
	}}
}

// serve runs the pod's side and plays baton: every question is allowed
// through the input FIFO, which closes after the child's result. It
// returns the pod's status, its report (if any) and its standard error.
func (p *podSetup) serve(t *testing.T) (int, *kube.Report, string) {
	t.Helper()
	outR, outW := io.Pipe()
	var errs strings.Builder
	code := make(chan int, 1)
	go func() {
		code <- kube.ServePod(func(k string) string { return p.env[k] }, strings.NewReader(""), outW, &errs)
		_ = outW.Close()
	}()
	answers, err := os.OpenFile(p.input, os.O_WRONLY, 0) // waits for the pod to open it
	if err != nil {
		t.Fatal(err)
	}
	var report *kube.Report
	lines := bufio.NewScanner(outR)
	lines.Buffer(nil, 64<<20)
	for lines.Scan() {
		var line struct {
			Ask *struct {
				ID int64 `json:"id"`
			} `json:"ask"`
			Result json.RawMessage `json:"result"`
			Kube   *kube.Report    `json:"kube"`
		}
		if err := json.Unmarshal(lines.Bytes(), &line); err != nil {
			t.Fatalf("the pod sent %q", lines.Text())
		}
		switch {
		case line.Ask != nil:
			fmt.Fprintf(answers, `{"reply":{"id":%d}}`+"\n", line.Ask.ID)
		case line.Result != nil:
			_ = answers.Close()
		case line.Kube != nil:
			report = line.Kube
		}
	}
	_ = answers.Close()
	return <-code, report, errs.String()
}

// git runs git in dir.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// The pod checks the workspace out, runs the child with baton's answers
// coming on its input file, and ends with the child's change as a bundle
// of the result ref on top of the workspace's ref; a child that changed
// nothing sends none.
func TestThePodSendsTheChildsChangeAsABundle(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is needed")
	}
	bundle := workspaceBundle(t, map[string]string{"notes.txt": "hello from the host\n", blobName: string(blob)})
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if len(results(r)) == 0 {
			w.ToolCalls(llmtest.Call{ID: "w", Name: "write_file", Args: `{"path":"notes.txt","content":"changed in the pod\n"}`})
			return
		}
		w.Text("changed")
	})
	p := newPod(t, bundle, srv, "write_file")
	code, report, errs := p.serve(t)
	if code != 0 || report == nil || len(report.Bundle) == 0 {
		t.Fatalf("status %d, report %+v: %s", code, report, errs)
	}
	// The bundle applies on a clone of what baton sent.
	repo := t.TempDir()
	git(t, repo, "init", "-q")
	// The workspace's bundle first: the result's prerequisite.
	for _, b := range []struct {
		data []byte
		ref  string
	}{{bundle, partsRef}, {report.Bundle, worktree.ResultRef}} {
		file := filepath.Join(t.TempDir(), "b.bundle")
		if err := os.WriteFile(file, b.data, 0o600); err != nil {
			t.Fatal(err)
		}
		git(t, repo, "fetch", "-q", file, b.ref+":"+b.ref)
	}
	if got := git(t, repo, "show", worktree.ResultRef+":notes.txt"); got != "changed in the pod" {
		t.Fatalf("the result's notes.txt = %q", got)
	}
	if got := git(t, repo, "rev-parse", worktree.ResultRef+"^"); got != git(t, repo, "rev-parse", partsRef) {
		t.Fatalf("the result is not on top of the workspace's ref")
	}

	// A child that only reads sends no bundle.
	quiet := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) { w.Text("nothing to change") })
	code, report, errs = newPod(t, bundle, quiet, "read_file").serve(t)
	if code != 0 || report != nil {
		t.Fatalf("a reading child: status %d, report %+v: %s", code, report, errs)
	}
}

// A spec the pod cannot read stops it before the child runs, saying why.
func TestThePodRefusesABadSpec(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is needed")
	}
	bundle := workspaceBundle(t, map[string]string{"notes.txt": "hello\n", blobName: string(blob)})
	srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) { w.Text("ran") })
	for name, c := range map[string]struct {
		spec string
		want string
	}{
		"missing":            {"", "read the spec: open"},
		"not JSON":           {"hello", "read the spec: invalid character"},
		"no toolbox":         {`{"spec":{}}`, "read the spec: unexpected end of JSON input"},
		"hidden not strings": {`{"spec":{"toolbox":{"sandbox":{"hidden":7}}}}`, "read the spec: json: cannot unmarshal number"},
	} {
		p := newPod(t, bundle, srv, "read_file")
		if c.spec == "" {
			_ = os.Remove(p.env[kube.EnvSpec])
		} else if err := os.WriteFile(p.env[kube.EnvSpec], []byte(c.spec), 0o600); err != nil {
			t.Fatal(err)
		}
		var errs strings.Builder
		if code := kube.ServePod(func(k string) string { return p.env[k] }, strings.NewReader(""), io.Discard, &errs); code != 2 || !strings.Contains(errs.String(), c.want) {
			t.Errorf("%s: status %d, stderr %q; want 2 and %q", name, code, errs.String(), c.want)
		}
		if entries, _ := os.ReadDir(p.ws); len(entries) != 0 {
			t.Errorf("%s: the workspace was checked out", name)
		}
	}
}

// The digest and the parts list are checked before a byte is joined: a
// digest that cannot be read or claims more than the cap, a part that is
// not there, parts longer than the digest gives.
func TestThePodRefusesABadDigestOrPartsList(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is needed")
	}
	bundle := workspaceBundle(t, map[string]string{"notes.txt": "hello\n", blobName: string(blob)})
	srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) { w.Text("ran") })
	digest := kube.DigestOf(bundle)
	for name, c := range map[string]struct {
		edit func(p *podSetup)
		want string
	}{
		"no digest": {func(p *podSetup) { _ = os.Remove(p.env[kube.EnvBundleDigest]) }, "read the workspace bundle's digest"},
		"a garbled digest": {func(p *podSetup) { _ = os.WriteFile(p.env[kube.EnvBundleDigest], []byte("{"), 0o600) },
			"read the workspace bundle's digest"},
		"a digest past the cap": {func(p *podSetup) {
			d := digest
			d.Size = kube.MaxBundle + 1
			_ = os.WriteFile(p.env[kube.EnvBundleDigest], d.Marshal(), 0o600)
		}, "more than 64 MiB"},
		"a part not there": {func(p *podSetup) {
			parts := filepath.SplitList(p.env[kube.EnvBundleParts])
			_ = os.Remove(parts[1])
		}, "read part 1 of the workspace bundle"},
		"parts past the digest's size": {func(p *podSetup) {
			d := digest
			d.Size--
			_ = os.WriteFile(p.env[kube.EnvBundleDigest], d.Marshal(), 0o600)
		}, "hold more than"},
	} {
		p := newPod(t, bundle, srv, "read_file")
		c.edit(p)
		var errs strings.Builder
		if code := kube.ServePod(func(k string) string { return p.env[k] }, strings.NewReader(""), io.Discard, &errs); code != 2 || !strings.Contains(errs.String(), c.want) {
			t.Errorf("%s: status %d, stderr %q; want 2 and %q", name, code, errs.String(), c.want)
		}
		if entries, _ := os.ReadDir(p.ws); len(entries) != 0 {
			t.Errorf("%s: the workspace was checked out", name)
		}
	}
}

// The pod's own git calls, after the child ran, ignore what the child's
// commands could have planted in the repository: a hook and an
// fsmonitor command never run; a repository the child removed fails the
// pod, saying so, rather than send a result.
func TestThePodsGitIgnoresWhatTheChildPlanted(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is needed")
	}
	bundle := workspaceBundle(t, map[string]string{"notes.txt": "hello\n", blobName: string(blob)})
	marker := filepath.Join(t.TempDir(), "pwned")
	script := filepath.Join(t.TempDir(), "evil.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	var p *podSetup
	plant := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		// What a command of the child could do, done here as the child
		// runs: a hook for every commit and an fsmonitor for every
		// status, and a change so there is something to commit.
		git := filepath.Join(p.ws, ".git")
		_ = os.WriteFile(filepath.Join(git, "hooks", "pre-commit"), []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755)
		_ = os.WriteFile(filepath.Join(git, "hooks", "post-commit"), []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755)
		f, _ := os.OpenFile(filepath.Join(git, "config"), os.O_APPEND|os.O_WRONLY, 0)
		_, _ = f.WriteString("[core]\n\tfsmonitor = " + script + "\n\thooksPath = " + filepath.Join(git, "hooks") + "\n")
		_ = f.Close()
		_ = os.WriteFile(filepath.Join(p.ws, "notes.txt"), []byte("changed\n"), 0o644)
		w.Text("planted")
	})
	p = newPod(t, bundle, plant, "read_file")
	code, report, errs := p.serve(t)
	if code != 0 || report == nil || len(report.Bundle) == 0 {
		t.Fatalf("status %d, report %+v: %s", code, report, errs)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a hook or fsmonitor the child planted ran in the pod's git")
	}

	var q *podSetup
	wipe := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) {
		_ = os.RemoveAll(filepath.Join(q.ws, ".git"))
		w.Text("wiped")
	})
	q = newPod(t, bundle, wipe, "read_file")
	code, report, errs = q.serve(t)
	if code != 1 || report != nil || !strings.Contains(errs, "baton kube child: record the result") {
		t.Fatalf("a wiped repository: status %d, report %+v, stderr %q", code, report, errs)
	}
}
