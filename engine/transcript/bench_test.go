package transcript

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkAppend measures records per second for a typical tool result
// (about 1 KiB), with and without an fsync after every record, which is
// what decides that Append leaves fsync to Sync.
func BenchmarkAppend(b *testing.B) {
	rec := map[string]any{
		"type":    "tool_finished",
		"agent":   "explore-1",
		"call_id": "call_42",
		"name":    "read_file",
		"summary": "40 lines",
		"output":  strings.Repeat("func main() { fmt.Println(\"hello\") }\n", 28),
	}
	for _, sync := range []bool{false, true} {
		name := "write"
		if sync {
			name = "write+fsync"
		}
		b.Run(name, func(b *testing.B) {
			store := NewStore(filepath.Join(b.TempDir(), "sessions"), NewRedactor("sk-bench-0123456789", "another-secret-value"))
			d, err := store.Create(b.TempDir(), time.Now())
			if err != nil {
				b.Fatal(err)
			}
			w, err := d.Writer(MainAgent)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if err := w.Append(KindEvent, "explore-1", rec); err != nil {
					b.Fatal(err)
				}
				if sync {
					if err := w.Sync(); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "records/s")
			if err := d.Close(); err != nil {
				b.Fatal(err)
			}
		})
	}
}
