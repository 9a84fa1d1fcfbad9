package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// readFile reads a transcript, keeping every whole record (see Truncation).
// Only a regular file is read: it is opened without blocking, so a FIFO
// or device in its place cannot hang a listing or a resume.
func readFile(path string) ([]Record, *Truncation, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("read transcript: %w", err)
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return nil, nil, errors.Join(fmt.Errorf("read transcript: %s is not a regular file", path), err)
	}
	recs, damage, err := parse(f)
	if err != nil {
		return nil, nil, fmt.Errorf("read transcript %s: %w", path, err)
	}
	return recs, damage, nil
}

// parse splits r into lines and decodes each. A final line without its
// newline is kept only if it is a whole record: the writer sends line and
// newline in one write, so a missing newline means the write was cut short.
func parse(r io.Reader) ([]Record, *Truncation, error) {
	br := bufio.NewReader(r)
	var recs []Record
	var damage Truncation
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, nil, err
		}
		complete := err == nil
		if len(bytes.TrimSpace(line)) > 0 {
			rec, ok := decode(line)
			switch {
			case ok:
				recs = append(recs, rec)
			case complete:
				damage.Corrupt = append(damage.Corrupt, n)
			default:
				damage.Line, damage.Bytes = n, len(line)
			}
		}
		if !complete {
			break
		}
	}
	if damage.Line == 0 && len(damage.Corrupt) == 0 {
		return recs, nil, nil
	}
	return recs, &damage, nil
}

// decode parses one line; anything but a record with a kind is damage.
func decode(line []byte) (Record, bool) {
	var rec Record
	if err := json.Unmarshal(line, &rec); err != nil || rec.Kind == "" {
		return Record{}, false
	}
	return rec, true
}
