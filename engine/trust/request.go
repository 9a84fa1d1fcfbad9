package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// Request is what the trust card shows: what the project's files want
// that an untrusted folder does not get (engine/config words it). Its
// lines come from a repository; whoever draws them cleans them of
// terminal escapes.
type Request struct {
	// Folder is the folder asked about.
	Folder string
	// Warning is set when the folder itself is risky (home, root).
	Warning string
	// Sections list what the project wants, grouped ("Endpoint",
	// "Agents", "Raised limits" …).
	Sections []Section
	// Loaded list what the project brings that loads whether or not the
	// folder is trusted (its skills: prompts, not permissions). They are
	// shown for the person to know, never a reason to ask.
	Loaded []Section
}

// Section is one group of the card.
type Section struct {
	Title string
	Lines []string
}

// Fingerprint identifies what a project asks for, so a refusal holds
// until the project asks for something else.
func Fingerprint(req Request) string {
	h := sha256.New()
	for _, s := range req.Sections {
		fmt.Fprintf(h, "%s\n%s\n\n", s.Title, strings.Join(s.Lines, "\n"))
	}
	return hex.EncodeToString(h.Sum(nil))
}
