package trust

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestConcurrentTrustAndUntrustLoseNothing trusts and untrusts twenty
// folders at once against one trust list, each change through a Store
// of its own as each `baton trust` has: half untrust folders trusted
// before, half trust new ones. Without a lock around the
// read-modify-write, a write made from a stale read brought untrusted
// folders back (3-6 of 20 pairs) while every call reported success.
// Every change must be in the final list.
func TestConcurrentTrustAndUntrustLoseNothing(t *testing.T) {
	const pairs = 10
	env := map[string]string{"HOME": t.TempDir(), "XDG_STATE_HOME": t.TempDir()}
	store := func() *Store {
		s, err := NewStore(env)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	var before, after []string
	for range pairs {
		before = append(before, resolved(t, t.TempDir()))
		after = append(after, resolved(t, t.TempDir()))
	}
	for _, dir := range before {
		if _, err := store().Add(dir, time.Now()); err != nil {
			t.Fatalf("trust %s: %v", dir, err)
		}
	}
	start := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, 2*pairs)
	for i := range pairs {
		wg.Go(func() {
			<-start
			if changed, err := store().Remove(before[i]); err != nil || !changed {
				errs <- fmt.Errorf("untrust %s: changed %v, %v", before[i], changed, err)
			}
		})
		wg.Go(func() {
			<-start
			if changed, err := store().Add(after[i], time.Now()); err != nil || !changed {
				errs <- fmt.Errorf("trust %s: changed %v, %v", after[i], changed, err)
			}
		})
	}
	close(start)
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	entries, err := store().Folders()
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, e := range entries {
		listed = append(listed, e.Path)
	}
	want := slices.Clone(after)
	slices.Sort(listed)
	slices.Sort(want)
	if !slices.Equal(listed, want) {
		t.Errorf("trusted after the race:\n%s\nwant exactly the newly trusted folders:\n%s", strings.Join(listed, "\n"), strings.Join(want, "\n"))
	}
}

// resolved is dir with its symlinks evaluated, as trust records it.
func resolved(t *testing.T, dir string) string {
	t.Helper()
	real, err := ResolveFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	return real
}
