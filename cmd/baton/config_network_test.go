package main

import (
	"context"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// [network] and reply_max_bytes merge key by key like every table, and
// reach the engine's configuration.
func TestNetworkTableMerges(t *testing.T) {
	const user = "[network]\nidle_timeout_s = 30\nretry_after_max_s = 90\n[limits]\nreply_max_bytes = 1048576\n"
	const project = "[network]\nconnect_timeout_s = 3\nfirst_byte_timeout_s = 600\n"
	w := newConfigWorld(t, user, project)
	cfg, err := w.load(t, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := network{Timeouts: llm.Timeouts{Connect: 3 * time.Second, FirstByte: 10 * time.Minute, Idle: 30 * time.Second}, RetryAfterMax: 90 * time.Second}
	if cfg.Network != want || cfg.Limits.ReplyMaxBytes != 1<<20 {
		t.Fatalf("network %+v, reply cap %d; want %+v and 1 MiB", cfg.Network, cfg.Limits.ReplyMaxBytes, want)
	}
	setup := newSessionSetup(cfg, endpoint{baseURL: "http://localhost:1/v1"}, agenttypes.NewRegistry(), w.workspace, nil, true)
	if setup.engine.RetryAfterMax != 90*time.Second || setup.engine.Limits.ReplyMaxBytes != 1<<20 {
		t.Fatalf("engine config: retry-after max %v, reply cap %d", setup.engine.RetryAfterMax, setup.engine.Limits.ReplyMaxBytes)
	}
}

// first_byte_timeout_s from the user config bounds a real run against an
// endpoint that never answers: the retry is announced naming the setting.
func TestRunNetworkTimeoutFromConfig(t *testing.T) {
	second := make(chan struct{})
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if r.Index == 1 {
			close(second)
		}
		<-w.Context().Done()
	})
	home := t.TempDir()
	writeFile(t, filepath.Join(home, ".config", "baton", "config.toml"), "[network]\nfirst_byte_timeout_s = 1\n")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { // exits when the retry arrives or the test ends
		select {
		case <-second:
			cancel()
		case <-ctx.Done():
		}
	}()
	r := runIn(t, ctx, []string{"HOME=" + home, "OPENAI_BASE_URL=" + srv.URL}, "", "-p", "hello")
	// The first pause is 2 s spread at random over 1 s to 3 s.
	want := regexp.MustCompile(`note: retrying in [123]s \(1/2\) · no reply from the endpoint within 1 s \(first_byte_timeout_s\)\n`)
	if r.code != exitInterrupted || !want.MatchString(r.stderr) {
		t.Fatalf("exit %d, stderr:\n%s\nwant %s", r.code, r.stderr, want)
	}
}
