package config

import (
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine/llm"
)

// [network] and reply_max_bytes merge key by key like every table.
func TestNetworkTableMerges(t *testing.T) {
	const user = "[network]\nidle_timeout_s = 30\nretry_after_max_s = 90\n[limits]\nreply_max_bytes = 1048576\n"
	const project = "[network]\nconnect_timeout_s = 3\nfirst_byte_timeout_s = 600\n"
	w := newConfigWorld(t, user, project)
	cfg, err := w.load(t, Overrides{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := Network{Timeouts: llm.Timeouts{Connect: 3 * time.Second, FirstByte: 10 * time.Minute, Idle: 30 * time.Second}, RetryAfterMax: 90 * time.Second}
	if cfg.Network != want || cfg.Limits.ReplyMaxBytes != 1<<20 {
		t.Fatalf("network %+v, reply cap %d; want %+v and 1 MiB", cfg.Network, cfg.Limits.ReplyMaxBytes, want)
	}
}
