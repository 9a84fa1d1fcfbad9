package input

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"
)

// Typing @ starts a mention of a workspace file (its content goes with
// the prompt): the popup offers the paths that match what follows the @,
// tab or enter puts the chosen one in the box. The paths come from the
// session in a Cmd, walked afresh each time a mention starts, so files
// made since show up; until the walk answers, the last list serves.

// maxMentionCandidates is how many paths the popup may scroll through.
const maxMentionCandidates = 50

// FilesMsg carries the workspace's paths for @ completion.
type FilesMsg struct {
	Paths []string
	Err   error
}

// files is what @ completes from.
type files struct {
	// list walks the workspace; nil offers nothing.
	list    func() ([]string, error)
	paths   []string
	loading bool
	// walkedFor is the box before the @ of the mention the last walk was
	// made for: a mention elsewhere is a new one, and walks again.
	walkedFor string
	walked    bool
	// The popup asks for the candidates several times a frame: the last
	// answer is kept for the box's value and the list it came from.
	version     int
	cachedFor   string
	cachedAt    int
	cached      []Candidate
	cachedFound bool
}

// SetFiles gives the box the way to list the workspace's files for @
// completion; it is called from a Cmd.
func (m *Model) SetFiles(list func() ([]string, error)) { m.files.list = list }

// mentionWord is the @word being typed at the end of the box: the text
// after the @, and the box before it; ok is false when the cursor is not
// at the end of such a word.
func (m *Model) mentionWord() (query, before string, ok bool) {
	value := m.ta.Value()
	i := strings.LastIndexAny(value, " \t\n")
	word := value[i+1:]
	if !strings.HasPrefix(word, "@") || strings.ContainsRune(word, '"') || !m.cursorAtEnd() {
		return "", "", false
	}
	return word[1:], value[:i+1], true
}

// loadFiles walks the workspace when a new mention has started (one
// typed, or pasted or typed fast in one burst with what follows the @)
// and no walk is under way.
func (m *Model) loadFiles() tea.Cmd {
	_, before, ok := m.mentionWord()
	if !ok || m.files.loading || m.files.list == nil || m.files.walked && before == m.files.walkedFor {
		return nil
	}
	m.files.loading, m.files.walked, m.files.walkedFor = true, true, before
	list := m.files.list
	return func() tea.Msg {
		paths, err := list()
		return FilesMsg{Paths: paths, Err: err}
	}
}

// filesLoaded keeps a walk's answer; a failed walk keeps the last list.
// A name a repository gave its file with control characters in it (an
// escape sequence that would redraw the screen) or that is not UTF-8 is
// never offered: it would reach the terminal as the box draws it.
func (m *Model) filesLoaded(msg FilesMsg) {
	m.files.loading = false
	if msg.Err != nil {
		return
	}
	m.files.paths = m.files.paths[:0]
	for _, p := range msg.Paths {
		if utf8.ValidString(p) && strings.IndexFunc(p, unicode.IsControl) < 0 {
			m.files.paths = append(m.files.paths, p)
		}
	}
	m.files.version++
}

// mentionCandidates are the paths matching the @word being typed: those
// whose path starts with it first, then those it names exactly ("main"
// for …/main.go), then whose name starts with it, then any holding it;
// shallower paths first within each, then in tree order.
func (m *Model) mentionCandidates() ([]Candidate, bool) {
	f := &m.files
	key := fmt.Sprintf("%t\x00%s", m.cursorAtEnd(), m.ta.Value())
	if f.cachedFor != key || f.cachedAt != f.version {
		f.cached, f.cachedFound = m.matchMention()
		f.cachedFor, f.cachedAt = key, f.version
	}
	return f.cached, f.cachedFound
}

// matchMention computes mentionCandidates.
func (m *Model) matchMention() ([]Candidate, bool) {
	query, before, ok := m.mentionWord()
	if !ok {
		return nil, false
	}
	q := strings.ToLower(query)
	type match struct {
		path       string
		rank, deep int
		order      int
	}
	var found []match
	for i, p := range m.files.paths {
		lower := strings.ToLower(p)
		name := strings.ToLower(strings.TrimSuffix(p[strings.LastIndex(strings.TrimSuffix(p, "/"), "/")+1:], "/"))
		stem, _, _ := strings.Cut(name, ".")
		rank := -1
		switch {
		case strings.HasPrefix(lower, q):
			rank = 0
		case name == q || stem == q:
			rank = 1
		case strings.HasPrefix(name, q):
			rank = 2
		case strings.Contains(lower, q):
			rank = 3
		}
		if rank >= 0 {
			found = append(found, match{path: p, rank: rank, deep: strings.Count(strings.TrimSuffix(p, "/"), "/"), order: i})
		}
	}
	sort.SliceStable(found, func(i, j int) bool {
		a, b := found[i], found[j]
		if a.rank != b.rank {
			return a.rank < b.rank
		}
		if a.deep != b.deep {
			return a.deep < b.deep
		}
		return a.order < b.order
	})
	out := make([]Candidate, 0, min(len(found), maxMentionCandidates))
	for _, f := range found[:min(len(found), maxMentionCandidates)] {
		out = append(out, mentionCandidate(f.path, before))
	}
	return out, true
}

// mentionCandidate puts path in the box after before: quoted when it
// holds a space, a folder open for more typing, a file closed with a
// space.
func mentionCandidate(path, before string) Candidate {
	mention, desc := "@"+path, "file"
	if strings.ContainsAny(path, " \t") {
		mention = `@"` + path + `"`
	}
	text := before + mention + " "
	if strings.HasSuffix(path, "/") {
		text, desc = before+mention, "folder"
	}
	return Candidate{Label: "@" + path, Text: text, Desc: desc}
}
