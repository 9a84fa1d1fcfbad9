package ui

import (
	"errors"
	"strings"
	"testing"
)

// /trust records the folder through cmd's trust list and says what it
// means; without a list it says why not, and a failure is shown.
func TestTrustCommand(t *testing.T) {
	var calls int
	opts := Options{Workspace: "/work/app", Theme: "dark", Trust: func() (string, error) {
		calls++
		return "trusted: /work/app; the project's settings apply from baton's next start", nil
	}}
	d := newDriverFor(t, newFakeSession(), opts, 100, 30)
	d.typeText("/tru")
	if !strings.Contains(d.screen(), "trust this folder, as baton trust does") {
		t.Errorf("/trust is not offered:\n%s", d.screen())
	}
	d.keys("enter")
	if calls != 1 || !strings.Contains(d.screen(), "trusted: /work/app; the project's settings apply from baton's next start") {
		t.Errorf("after /trust (%d calls):\n%s", calls, d.screen())
	}

	opts.Trust = func() (string, error) { return "", errors.New("write trusted.json: read-only file system") }
	failing := newDriverFor(t, newFakeSession(), opts, 100, 30)
	failing.typeText("/trust")
	failing.keys("enter")
	if !strings.Contains(failing.screen(), "trust: write trusted.json: read-only file system") {
		t.Errorf("a failed /trust is not shown:\n%s", failing.screen())
	}

	none := newDriver(t, 100, 30)
	none.typeText("/trust")
	none.keys("enter")
	if !strings.Contains(none.screen(), "no trust list") {
		t.Errorf("/trust without a trust list:\n%s", none.screen())
	}
}
