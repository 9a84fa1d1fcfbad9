package transcript

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// Bounds of a project's prompt history: how many prompts it keeps, and
// the longest prompt it keeps at all (a pasted file is not worth
// recalling, and must not make the file huge).
const (
	MaxHistory          = 500
	maxHistoryPromptLen = 16 << 10
)

// History is one project's prompt history across runs, one JSON line per
// prompt, in baton's state folder beside the sessions. A prompt holding a
// secret the redactor knows is never written.
type History struct {
	path   string
	redact *Redactor
}

// historyLine is one line of a history file.
type historyLine struct {
	Time   time.Time `json:"time"`
	Prompt string    `json:"prompt"`
}

// History returns workspace's prompt history:
// <state>/baton/history/<project>.jsonl, the project named as its
// sessions' folder is. Nothing is created before the first Add.
func (s *Store) History(workspace string) (*History, error) {
	name, err := projectName(workspace)
	if err != nil {
		return nil, fmt.Errorf("prompt history: %w", err)
	}
	return &History{path: filepath.Join(filepath.Dir(s.root), "history", name+".jsonl"), redact: s.redact}, nil
}

// Path is the history file.
func (h *History) Path() string { return h.path }

// Load returns the kept prompts, oldest first. A missing file is an empty
// history; a damaged line is skipped. When the file holds more than
// MaxHistory prompts it is rewritten with the newest ones, so it stays
// bounded however long it is used.
func (h *History) Load() ([]string, error) {
	f, err := os.OpenFile(h.path, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load prompt history: %w", err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return nil, fmt.Errorf("load prompt history: %w", err)
	}
	var lines []historyLine
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 4*maxHistoryPromptLen)
	for sc.Scan() {
		var l historyLine
		if json.Unmarshal(sc.Bytes(), &l) == nil && l.Prompt != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > MaxHistory {
		lines = lines[len(lines)-MaxHistory:]
		if err := h.rewrite(lines); err != nil {
			return nil, err
		}
	}
	prompts := make([]string, len(lines))
	for i, l := range lines {
		prompts[i] = l.Prompt
	}
	return prompts, nil
}

// Add appends a prompt. It reports whether the prompt was kept: an empty
// or oversized prompt, or one holding a secret, is not.
func (h *History) Add(prompt string, now time.Time) (bool, error) {
	if prompt == "" || len(prompt) > maxHistoryPromptLen || h.redact.Redact(prompt) != prompt {
		return false, nil
	}
	data, err := json.Marshal(historyLine{Time: now.UTC(), Prompt: prompt})
	if err != nil {
		return false, fmt.Errorf("add to prompt history: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(h.path), 0o700); err != nil {
		return false, fmt.Errorf("add to prompt history: %w", err)
	}
	f, err := os.OpenFile(h.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return false, fmt.Errorf("add to prompt history: %w", err)
	}
	defer f.Close()
	// The lock keeps two batons in one project from interleaving lines.
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return false, fmt.Errorf("add to prompt history: %w", err)
	}
	if _, err := f.Write(append(data, '\n')); err != nil {
		return false, fmt.Errorf("add to prompt history: %w", err)
	}
	return true, nil
}

// rewrite replaces the file with lines, atomically.
func (h *History) rewrite(lines []historyLine) error {
	tmp, err := os.CreateTemp(filepath.Dir(h.path), ".history-*")
	if err != nil {
		return fmt.Errorf("trim prompt history: %w", err)
	}
	w := bufio.NewWriter(tmp)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, l := range lines {
		if err := enc.Encode(l); err != nil {
			break
		}
	}
	err = errors.Join(w.Flush(), tmp.Close())
	if err == nil {
		err = os.Rename(tmp.Name(), h.path)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("trim prompt history: %w", err)
	}
	return nil
}
