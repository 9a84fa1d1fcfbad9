package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"
)

// Writer appends records to one agent's transcript. It is safe for
// concurrent use; each record is one whole line written with one write(2).
type Writer struct {
	dir    *Dir
	agent  string
	path   string
	redact *Redactor

	mu     sync.Mutex
	f      *os.File // nil while released or once closed
	closed bool
}

// openWriter opens path for appending, creating it private to the user:
// transcripts hold code and conversations.
func openWriter(d *Dir, agent, path string) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open transcript: %w", err)
	}
	if err := terminateLastLine(f); err != nil {
		return nil, errors.Join(fmt.Errorf("open transcript: %w", err), f.Close())
	}
	return &Writer{dir: d, agent: agent, path: path, redact: d.redact, f: f}, nil
}

// terminateLastLine ends a line that a crash cut short, so that the next
// record starts on a line of its own instead of being glued to the fragment
// and lost with it. The fragment is then reported as a corrupt line.
func terminateLastLine(f *os.File) error {
	info, err := f.Stat()
	if err != nil || info.Size() == 0 {
		return err
	}
	last := make([]byte, 1)
	if _, err := f.ReadAt(last, info.Size()-1); err != nil {
		return err
	}
	if last[0] == '\n' {
		return nil
	}
	_, err = f.Write([]byte{'\n'})
	return err
}

// Append writes one record of the given kind for agent. data is marshalled
// to JSON and the whole line is redacted before it is handed to the kernel;
// when Append returns nil the record survives the process being killed.
func (w *Writer) Append(kind, agent string, data any) error {
	line, err := encodeLine(time.Now(), kind, agent, data)
	if err != nil {
		return err
	}
	if line, err = w.redact.redactLine(line); err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return errors.New("append record: transcript closed")
	}
	if w.f == nil {
		// Released: the agent wrote again after it ended.
		if w.f, err = os.OpenFile(w.path, os.O_WRONLY|os.O_APPEND, 0o600); err != nil {
			return fmt.Errorf("append record: %w", err)
		}
	}
	if _, err := w.f.Write(line); err != nil {
		return fmt.Errorf("append record: %w", err)
	}
	return nil
}

// Sync flushes the transcript to stable storage, protecting it against a
// power loss as well; worth calling where waiting a few milliseconds is
// free, such as the end of a turn.
func (w *Writer) Sync() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.closed:
		return errors.New("sync transcript: transcript closed")
	case w.f == nil:
		return nil // released: its sync is the Dir's (see Dir.syncLater)
	}
	if err := w.f.Sync(); err != nil {
		return fmt.Errorf("sync transcript: %w", err)
	}
	return nil
}

// Close syncs and closes the transcript. The next Dir.Writer call for the
// same agent opens it again, appending.
func (w *Writer) Close() error {
	err := w.closeFile()
	w.dir.forget(w)
	return err
}

// Release closes the file but keeps the writer usable: the next Append
// opens the file again. It is for an agent that has ended and writes
// rarely if ever again, so a session with many children does not hold one
// descriptor per child until it ends. The file is synced and closed in
// the background (see Dir.syncLater); Dir.Close waits for it.
func (w *Writer) Release() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return
	}
	f := w.f
	w.f = nil
	w.dir.syncLater(f)
}

// closeFile syncs and closes the file for good; closing twice is harmless.
func (w *Writer) closeFile() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.closed = true
	return w.shut()
}

// shut syncs and closes the open file, if any; w.mu is held.
func (w *Writer) shut() error {
	if w.f == nil {
		return nil
	}
	f := w.f
	w.f = nil
	if err := errors.Join(f.Sync(), f.Close()); err != nil {
		return fmt.Errorf("close transcript: %w", err)
	}
	return nil
}

// encodeLine is one record as a JSON line ending in a newline, the bytes
// encoding a Record gives. HTML escaping is off so that code in tool
// output stays readable in the file. The data is encoded once and the
// record's fields are written around it: encoding the Record whole went
// over the data a second time (a json.RawMessage is checked and compacted
// again), a tenth of the work of starting a child.
func encodeLine(t time.Time, kind, agent string, data any) ([]byte, error) {
	if !validKind(kind) {
		return nil, fmt.Errorf("append record: unknown kind %q", kind)
	}
	if agent == "" {
		return nil, errors.New("append record: empty agent id")
	}
	raw, err := marshal(data)
	if err != nil {
		return nil, fmt.Errorf("append record: marshal %s data: %w", kind, err)
	}
	stamp, err := t.UTC().MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("append record: %w", err)
	}
	who, err := marshal(agent)
	if err != nil {
		return nil, fmt.Errorf("append record: %w", err)
	}
	// A kind is one of a few plain words (validKind): no quoting needed.
	line := make([]byte, 0, len(raw)+len(stamp)+len(who)+len(kind)+len(`{"time":,"kind":"","agent":,"data":}`)+1)
	line = append(append(line, `{"time":`...), stamp...)
	line = append(append(append(line, `,"kind":"`...), kind...), '"')
	line = append(append(line, `,"agent":`...), bytes.TrimSuffix(who, []byte{'\n'})...)
	line = append(append(line, `,"data":`...), bytes.TrimSuffix(raw, []byte{'\n'})...)
	return append(line, "}\n"...), nil
}

// marshal encodes v as one line of JSON without HTML escaping.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
