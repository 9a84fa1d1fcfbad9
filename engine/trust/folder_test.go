package trust

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// wants is a project asking for one thing.
func wants(line string) Request {
	return Request{Folder: "/ws", Sections: []Section{{Title: "Models", Lines: []string{line}}}}
}

// TestFolderAsksOnceUntilTheProjectWantsMore: a project that wants
// something is asked about; declining it holds for exactly what was
// asked, and trusting records the folder for the next run.
func TestFolderAsksOnceUntilTheProjectWantsMore(t *testing.T) {
	env := map[string]string{"HOME": t.TempDir(), "XDG_STATE_HOME": t.TempDir()}
	ws := resolved(t, t.TempDir())
	f := Lookup(ws, env, false)
	if f.Trusted || f.Store == nil || f.Notice != "" || f.Path != ws {
		t.Fatalf("lookup %+v", f)
	}
	if f.MustAsk(Request{Folder: ws}) {
		t.Error("a project that wants nothing was asked about")
	}
	model := wants(`model = "x"`)
	if !f.MustAsk(model) {
		t.Fatal("a project that wants a model was not asked about")
	}
	f.Decline(model)
	if f.Notice != "" || Lookup(ws, env, false).MustAsk(model) {
		t.Fatalf("the refusal did not hold (notice %q)", f.Notice)
	}
	if !f.MustAsk(wants(`model = "y"`)) {
		t.Error("a project that asks for something else was not asked about again")
	}
	f.Grant(time.Now())
	if again := Lookup(ws, env, false); !f.Trusted || !again.Trusted {
		t.Fatalf("granted %v, recorded %v", f.Trusted, again.Trusted)
	}
	// Trusting forgets the refusal: untrusted again, the card asks again.
	if _, err := f.Store.Remove(ws); err != nil {
		t.Fatal(err)
	}
	if !Lookup(ws, env, false).MustAsk(model) {
		t.Error("a refusal outlived the folder's trust")
	}
}

// TestBroadFolderAlwaysAsks: the home folder and the root are asked
// about every time, even with nothing to ask for, and a refusal there is
// never recorded.
func TestBroadFolderAlwaysAsks(t *testing.T) {
	home := resolved(t, t.TempDir())
	env := map[string]string{"HOME": home, "XDG_STATE_HOME": t.TempDir()}
	if !IsBroad(home, env) || !IsBroad("/", env) || IsBroad(resolved(t, t.TempDir()), env) || IsBroad(home, map[string]string{}) {
		t.Fatal("IsBroad: home and root are broad, other folders are not")
	}
	f := Lookup(home, env, false)
	if !f.Broad(env) {
		t.Fatal("the untrusted home folder is not broad")
	}
	req := Request{Folder: home, Warning: "home"}
	f.Decline(req)
	if !f.MustAsk(req) || !Lookup(home, env, false).MustAsk(req) {
		t.Error("a refusal in the home folder was recorded")
	}
	if flagged := Lookup(home, env, true); !flagged.Trusted || flagged.Broad(env) {
		t.Errorf("--trust: %+v", flagged)
	}
	if _, err := os.Stat(filepath.Join(env["XDG_STATE_HOME"], "baton", "trusted.json")); err == nil {
		t.Error("--trust wrote the trust list; it lasts one run")
	}
}

// TestFolderWithoutATrustList: with no HOME and no XDG_STATE_HOME the
// folder is untrusted and says why; trusting it lasts this run.
func TestFolderWithoutATrustList(t *testing.T) {
	ws := t.TempDir()
	f := Lookup(ws, map[string]string{}, false)
	if f.Trusted || f.Store != nil || !strings.Contains(f.Notice, "treated as untrusted") {
		t.Fatalf("lookup %+v", f)
	}
	if !f.MustAsk(wants("x")) {
		t.Error("without a list every card is asked")
	}
	f.Decline(wants("x"))
	f.Grant(time.Now())
	if !f.Trusted || !strings.HasPrefix(f.Notice, "trusted for this run only (") {
		t.Errorf("grant %+v", f)
	}
}

// TestUnrecordableChoicesAreSaid: a trust list that cannot be written
// (its folder is a file) leaves the folder trusted for this run only,
// and a refusal that cannot be recorded says so.
func TestUnrecordableChoicesAreSaid(t *testing.T) {
	state := t.TempDir()
	if err := os.WriteFile(filepath.Join(state, "baton"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	f := Lookup(t.TempDir(), map[string]string{"XDG_STATE_HOME": state}, false)
	f.Decline(wants("x"))
	if !strings.HasPrefix(f.Notice, "could not record your choice: ") {
		t.Errorf("decline notice %q", f.Notice)
	}
	f.Grant(time.Now())
	if !f.Trusted || !strings.HasPrefix(f.Notice, "trusted for this run only; could not record it: ") {
		t.Errorf("grant %+v", f)
	}
}

func TestFingerprintFollowsWhatIsAsked(t *testing.T) {
	a, b := wants("x"), wants("y")
	if Fingerprint(a) == Fingerprint(b) || Fingerprint(a) != Fingerprint(wants("x")) {
		t.Error("the fingerprint must change with what is asked, and only then")
	}
	a.Loaded = []Section{{Title: "Skills", Lines: []string{"s"}}}
	if Fingerprint(a) != Fingerprint(wants("x")) {
		t.Error("skills load either way; they must not change the fingerprint")
	}
}
