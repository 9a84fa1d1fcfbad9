package trust

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestStoreLocation: the list lives under an absolute XDG_STATE_HOME,
// else under the home folder; with neither there is none, and a
// relative XDG_STATE_HOME counts as unset, as the spec says.
func TestStoreLocation(t *testing.T) {
	for env, want := range map[[2]string]string{
		{"/state", "/home/a"}:   "/state/baton/trusted.json",
		{"relative", "/home/a"}: "/home/a/.local/state/baton/trusted.json",
		{"", "/home/a"}:         "/home/a/.local/state/baton/trusted.json",
	} {
		s, err := NewStore(map[string]string{"XDG_STATE_HOME": env[0], "HOME": env[1]})
		if err != nil || s.path != want {
			t.Errorf("%v: %+v %v, want %s", env, s, err, want)
		}
	}
	if _, err := NewStore(map[string]string{"XDG_STATE_HOME": "relative"}); err == nil {
		t.Error("no home and a relative state folder gave a trust list")
	}
}

// TestResolveFolder: trust is recorded under the folder's real path; a
// path that is missing or not a folder cannot be trusted.
func TestResolveFolder(t *testing.T) {
	dir := resolved(t, t.TempDir())
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	if got, err := ResolveFolder(link); err != nil || got != dir {
		t.Errorf("link: %q %v, want %q", got, err, dir)
	}
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{file, filepath.Join(dir, "missing")} {
		if _, err := ResolveFolder(bad); err == nil || !strings.HasPrefix(err.Error(), "resolve folder: ") {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

// TestDamagedListTrustsNothing: a list that is not JSON, or larger than
// any list baton writes, is an error for every reader and writer, so
// nothing silently trusts or forgets a folder, and the file is kept.
func TestDamagedListTrustsNothing(t *testing.T) {
	for name, content := range map[string]string{
		"not JSON":  "{not json",
		"too large": `{"version":1,"folders":[],"pad":"` + strings.Repeat("x", maxTrustFileBytes) + `"}`,
	} {
		state := t.TempDir()
		s, _ := NewStore(map[string]string{"XDG_STATE_HOME": state})
		if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(s.path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Trusted("/x"); err == nil {
			t.Errorf("%s: Trusted read it", name)
		}
		if _, err := s.Declined("/x", "w"); err == nil {
			t.Errorf("%s: Declined read it", name)
		}
		if _, err := s.Add("/x", time.Now()); err == nil {
			t.Errorf("%s: Add wrote over it", name)
		}
		if f := Lookup(t.TempDir(), map[string]string{"XDG_STATE_HOME": state}, false); f.Trusted || !strings.Contains(f.Notice, "treated as untrusted") {
			t.Errorf("%s: lookup %+v", name, f)
		}
		if data, _ := os.ReadFile(s.path); string(data) != content {
			t.Errorf("%s: the file changed", name)
		}
	}
}

// TestRemoveAndDecline: taking a folder off the list also forgets a
// refusal, and says whether it was trusted; a new refusal replaces the
// old one.
func TestRemoveAndDecline(t *testing.T) {
	s, _ := NewStore(map[string]string{"XDG_STATE_HOME": t.TempDir()})
	if removed, err := s.Remove("/never"); err != nil || removed {
		t.Errorf("remove of a folder never trusted: %v %v", removed, err)
	}
	if err := s.Decline("/d", "one"); err != nil {
		t.Fatal(err)
	}
	if err := s.Decline("/d", "two"); err != nil {
		t.Fatal(err)
	}
	if old, _ := s.Declined("/d", "one"); old {
		t.Error("the older refusal still holds")
	}
	if now, _ := s.Declined("/d", "two"); !now {
		t.Error("the refusal was not recorded")
	}
	if removed, err := s.Remove("/d"); err != nil || removed {
		t.Errorf("remove of a declined folder: %v %v", removed, err)
	}
	if still, _ := s.Declined("/d", "two"); still {
		t.Error("remove kept the refusal")
	}
	if added, _ := s.Add("/d", time.Now()); !added {
		t.Error("add")
	}
	if again, _ := s.Add("/d", time.Now()); again {
		t.Error("adding a trusted folder again reported a change")
	}
}

// TestUnwritableListIsAnError: where the state folder cannot be made,
// trusting is an error, not a silent success.
func TestUnwritableListIsAnError(t *testing.T) {
	state := t.TempDir()
	if err := os.WriteFile(filepath.Join(state, "baton"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	s, _ := NewStore(map[string]string{"XDG_STATE_HOME": state})
	if _, err := s.Add("/x", time.Now()); err == nil || !strings.Contains(err.Error(), "lock trust list") {
		t.Errorf("add: %v", err)
	}
}
