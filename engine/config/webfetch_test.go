package config

import (
	"strings"
	"testing"
)

func TestWebFetchAllowPrivateOnlyFromTheUser(t *testing.T) {
	cfg, err := newConfigWorld(t, "[web_fetch]\nallow_private = true\n", "").load(t, Overrides{}, nil)
	if err != nil || !cfg.WebFetch.AllowPrivate {
		t.Fatalf("user allow_private: %v %+v", err, cfg.WebFetch)
	}
	cfg, err = newConfigWorld(t, "", "").load(t, Overrides{}, nil)
	if err != nil || cfg.WebFetch.AllowPrivate {
		t.Fatalf("default: %v %+v", err, cfg.WebFetch)
	}
	_, err = newConfigWorld(t, "[web_fetch]\nallow_privat = true\n", "").load(t, Overrides{}, nil)
	if err == nil || !strings.Contains(err.Error(), "known in [web_fetch]: allow_private") {
		t.Fatalf("typo: %v", err)
	}
	_, err = newConfigWorld(t, "web_fetch = 1\n", "").load(t, Overrides{}, nil)
	if err == nil || !strings.Contains(err.Error(), "a table ([web_fetch])") {
		t.Fatalf("not a table: %v", err)
	}
}

func TestAllowNamesTheNewTools(t *testing.T) {
	allow, err := ParseAllow([]string{"web_fetch,todo_write"})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := newConfigWorld(t, "", "").load(t, Overrides{Allow: allow}, nil)
	if err != nil || strings.Join(cfg.Allow, ",") != "web_fetch,todo_write" {
		t.Fatalf("allow %v: %v", cfg.Allow, err)
	}
}
