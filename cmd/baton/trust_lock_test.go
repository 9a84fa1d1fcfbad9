package main

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestConcurrentTrustAndUntrustLoseNothing runs twenty `baton trust` and
// `baton untrust` at once against one trust list: half untrust folders
// trusted before, half trust new ones. Without a lock around the
// read-modify-write, a write made from a stale read brought untrusted
// folders back (3-6 of 20 pairs) while every command reported success.
// Every change must be in the final list.
func TestConcurrentTrustAndUntrustLoseNothing(t *testing.T) {
	const pairs = 10
	env := []string{"HOME=" + t.TempDir(), "XDG_STATE_HOME=" + t.TempDir()}
	baton := func(args ...string) (int, string) {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), args, env, strings.NewReader(""), &stdout, &stderr, nil)
		return code, stdout.String() + stderr.String()
	}
	var before, after []string
	for range pairs {
		before = append(before, t.TempDir())
		after = append(after, t.TempDir())
	}
	for _, dir := range before {
		if code, out := baton("trust", dir); code != exitOK {
			t.Fatalf("trust %s: exit %d: %s", dir, code, out)
		}
	}
	start := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan string, 2*pairs)
	for i := range pairs {
		for _, job := range [][]string{{"untrust", before[i]}, {"trust", after[i]}} {
			wg.Go(func() {
				<-start
				if code, out := baton(job...); code != exitOK {
					errs <- strings.Join(job, " ") + ": " + out
				}
			})
		}
	}
	close(start)
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	code, out := baton("trust", "--list")
	if code != exitOK {
		t.Fatalf("trust --list: exit %d: %s", code, out)
	}
	var listed []string
	for line := range strings.Lines(out) {
		path, _, _ := strings.Cut(line, "\t")
		listed = append(listed, path)
	}
	var want []string
	for _, dir := range after {
		real, err := filepath.EvalSymlinks(dir)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, real)
	}
	slices.Sort(listed)
	slices.Sort(want)
	if !slices.Equal(listed, want) {
		t.Errorf("trusted after the race:\n%s\nwant exactly the newly trusted folders:\n%s", strings.Join(listed, "\n"), strings.Join(want, "\n"))
	}
}
