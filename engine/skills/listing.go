package skills

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Bounds of the listing in a system prompt: every skill costs its
// description on every request, so the list is cut, and says so.
const (
	// ListingChars bounds the whole list.
	ListingChars = 8000
	// listedDescriptionRunes bounds one description in the list.
	listedDescriptionRunes = 300
)

// Listing is the system prompt's section on skills: how to use them and
// each one's name and description, cut at ListingChars with a note that
// says how many were left out and how to reach them. Empty for no skills.
func Listing(list []Skill) string {
	if len(list) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("# Skills\n\nSkills are instructions for particular tasks, each in a folder that may hold scripts and references. " +
		"When a task matches a skill's description, call the skill tool with its name before you start: its instructions come back as the result, " +
		"and its folder becomes readable to your file tools (run its scripts with run_command).\n\n")
	for i, s := range list {
		line := fmt.Sprintf("- %s: %s\n", s.Name, clip(s.Description, listedDescriptionRunes))
		if b.Len()+len(line) > ListingChars {
			fmt.Fprintf(&b, "(%d more skills are not listed, to keep this short; calling skill with a name it does not know returns every name.)\n", len(list)-i)
			break
		}
		b.WriteString(line)
	}
	return strings.TrimRight(b.String(), "\n")
}

// Names lists the skills' names, bounded, for an error that must tell
// the model what exists.
func Names(list []Skill) string {
	var names []string
	size := 0
	for i, s := range list {
		if size+len(s.Name) > ListingChars {
			names = append(names, fmt.Sprintf("and %d more", len(list)-i))
			break
		}
		names = append(names, s.Name)
		size += len(s.Name) + 2
	}
	return strings.Join(names, ", ")
}

// clip cuts s to n characters, marking the cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}
