package lastbytes

import "testing"

func TestWriterKeepsTheLastBytes(t *testing.T) {
	w := &Writer{Max: 8}
	for _, s := range []string{"first line\n", "second\nlast\n"} {
		if n, err := w.Write([]byte(s)); n != len(s) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", s, n, err)
		}
	}
	if got := w.String(); got != "nd\nlast\n" {
		t.Fatalf("String() = %q", got)
	}
	if got := w.LastLine(); got != "last" {
		t.Fatalf("LastLine() = %q", got)
	}
	var none *Writer
	if got := none.LastLine(); got != "" {
		t.Fatalf("nil LastLine() = %q", got)
	}
}

// A rune cut in two by the bound is dropped, not shown as garbage.
func TestWriterStringIsValidUTF8(t *testing.T) {
	w := &Writer{Max: 4} // the last byte of é, then €
	_, _ = w.Write([]byte("aé€"))
	if got := w.String(); got != "€" {
		t.Fatalf("String() = %q", got)
	}
}
