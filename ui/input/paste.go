package input

import (
	"fmt"
	"strings"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"
)

// A paste larger than the box shows (more than MaxLines lines, or more
// than collapseChars characters) goes into the box as one short token,
// "[Pasted text +42 lines]", as in Claude Code: the prompt around it stays
// readable and editable, and the token is replaced by the text it stands
// for when the prompt is sent. Backspace at a token removes it whole; a
// token edited by hand no longer matches and is sent as typed.

// collapseChars is the most characters a paste may have and still go
// into the box as it is.
const collapseChars = 1000

// paste is one collapsed paste: its token in the box and its text.
type paste struct{ token, text string }

// collapsePaste puts a large pasted text into the box as a token; it
// reports whether it did.
func (m *Model) collapsePaste(k tea.KeyMsg) bool {
	if !k.Paste || k.Type != tea.KeyRunes {
		return false
	}
	text := strings.ReplaceAll(strings.ReplaceAll(string(k.Runes), "\r\n", "\n"), "\r", "\n")
	lines := strings.Count(strings.TrimSuffix(text, "\n"), "\n") + 1 // a last newline ends a line, it starts none
	if lines <= MaxLines && utf8.RuneCountInString(text) <= collapseChars {
		return false
	}
	token := m.pasteToken(lines)
	m.pastes = append(m.pastes, paste{token: token, text: text})
	m.ta.InsertString(token)
	return true
}

// pasteToken names a paste of lines lines, numbered when the box already
// holds a paste of the same size, so each token stands for one text.
func (m *Model) pasteToken(lines int) string {
	size := fmt.Sprintf("+%d lines", lines)
	if lines == 1 {
		size = "+1 line"
	}
	token := "[Pasted text " + size + "]"
	for n := 2; m.pasteNamed(token); n++ {
		token = fmt.Sprintf("[Pasted text #%d %s]", n, size)
	}
	return token
}

// pasteNamed says whether a kept paste has the token.
func (m *Model) pasteNamed(token string) bool {
	for _, p := range m.pastes {
		if p.token == token {
			return true
		}
	}
	return false
}

// expandPastes replaces each paste's token in text by the text it stands
// for; a token the person deleted leaves nothing behind.
func (m *Model) expandPastes(text string) string {
	for _, p := range m.pastes {
		text = strings.Replace(text, p.token, p.text, 1)
	}
	return text
}

// dropPasteBeforeCursor removes a token that ends where the cursor is,
// at the end of the text, as backspace would a single character; it
// reports whether it did.
func (m *Model) dropPasteBeforeCursor() bool {
	value := m.ta.Value()
	if !m.cursorAtEnd() {
		return false
	}
	for i, p := range m.pastes {
		if rest, ok := strings.CutSuffix(value, p.token); ok {
			m.pastes = append(m.pastes[:i:i], m.pastes[i+1:]...)
			m.ta.SetValue(rest)
			return true
		}
	}
	return false
}

// cursorAtEnd says whether the cursor is after the box's last character.
func (m *Model) cursorAtEnd() bool {
	if m.ta.Line() != m.ta.LineCount()-1 {
		return false
	}
	info := m.ta.LineInfo()
	lines := strings.Split(m.ta.Value(), "\n")
	return info.StartColumn+info.ColumnOffset >= utf8.RuneCountInString(lines[len(lines)-1])
}
