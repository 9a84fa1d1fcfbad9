package main

import (
	"strings"
	"testing"
)

func TestWebFetchAllowPrivateOnlyFromTheUser(t *testing.T) {
	cfg, err := newConfigWorld(t, "[web_fetch]\nallow_private = true\n", "").load(t, nil, nil)
	if err != nil || !cfg.WebFetch.AllowPrivate {
		t.Fatalf("user allow_private: %v %+v", err, cfg.WebFetch)
	}
	if setup := newSessionSetup(cfg, endpoint{}, t.TempDir(), nil, true); !setup.engine.WebFetch.AllowPrivate {
		t.Fatal("allow_private did not reach the engine")
	}
	cfg, err = newConfigWorld(t, "", "").load(t, nil, nil)
	if err != nil || cfg.WebFetch.AllowPrivate {
		t.Fatalf("default: %v %+v", err, cfg.WebFetch)
	}
	_, err = newConfigWorld(t, "", "[web_fetch]\nallow_private = true\n").load(t, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "web_fetch.allow_private is not allowed in project config") {
		t.Fatalf("project allow_private: %v", err)
	}
	_, err = newConfigWorld(t, "[web_fetch]\nallow_privat = true\n", "").load(t, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "known in [web_fetch]: allow_private") {
		t.Fatalf("typo: %v", err)
	}
	_, err = newConfigWorld(t, "web_fetch = 1\n", "").load(t, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "a table ([web_fetch])") {
		t.Fatalf("not a table: %v", err)
	}
}
