package transcript

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"testing"
)

func TestReadDropsTruncatedLastLine(t *testing.T) {
	_, _, d := newSession(t, nil)
	w := writer(t, d, MainAgent)
	for i := range 5 {
		appendAll(t, w, KindEvent, MainAgent, event{Type: "text_delta", Text: strings.Repeat("x", 50), N: i + 1})
	}
	path := d.FileOf(MainAgent)
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Cut the last record anywhere: just its newline, its middle, its first byte.
	lastStart := strings.LastIndex(strings.TrimSuffix(string(raw), "\n"), "\n") + 1
	for _, cut := range []int{len(raw) - 1, (lastStart + len(raw)) / 2, lastStart + 1} {
		t.Run(fmt.Sprint(cut), func(t *testing.T) {
			if err := os.WriteFile(path, raw[:cut], 0o600); err != nil {
				t.Fatal(err)
			}
			recs, damage, err := d.Read(MainAgent)
			if err != nil {
				t.Fatal(err)
			}
			if cut == len(raw)-1 {
				// Only the newline is missing: the record is whole and kept.
				if len(recs) != 5 || damage != nil {
					t.Fatalf("got %d records, damage %v; want 5 and none", len(recs), damage)
				}
				return
			}
			if len(recs) != 4 {
				t.Fatalf("got %d records, want the 4 before the cut", len(recs))
			}
			for i, rec := range recs {
				if n := dataOf[event](t, rec).N; n != i+1 {
					t.Errorf("record %d has n=%d", i, n)
				}
			}
			if damage == nil || damage.Line != 5 || damage.Bytes != cut-lastStart || damage.Corrupt != nil {
				t.Errorf("damage = %+v, want line 5 of %d bytes", damage, cut-lastStart)
			}
		})
	}
}

func TestReadSkipsCorruptMiddleLine(t *testing.T) {
	_, _, d := newSession(t, nil)
	content := `{"time":"2026-11-25T21:43:00Z","kind":"event","agent":"main","data":{"n":1}}
not json at all
{"time":"2026-11-25T21:43:01Z","kind":"event","agent":"main","data":{"n":2}}

{"unrelated":true}
{"time":"2026-11-25T21:43:02Z","kind":"message","agent":"main","data":{"n":3}}
{"time":"2026-11-25T21:43:0`
	if err := os.WriteFile(d.FileOf(MainAgent), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	recs, damage, err := d.Read(MainAgent)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 {
		t.Fatalf("got %d records, want the 3 whole ones", len(recs))
	}
	if damage == nil || fmt.Sprint(damage.Corrupt) != "[2 5]" || damage.Line != 7 || damage.Bytes != 27 {
		t.Fatalf("damage = %+v, want corrupt lines 2 and 5 and a cut line 7", damage)
	}
	want := "dropped a half-written last line (line 7, 27 bytes); skipped 2 corrupt line(s): 2, 5"
	if got := damage.String(); got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

func TestReadMissingTranscript(t *testing.T) {
	_, _, d := newSession(t, nil)
	if _, _, err := d.Read("nobody"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("err = %v, want not exist", err)
	}
}
