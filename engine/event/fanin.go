package event

// FanIn is the review's view across every worktree child's change
// waiting for review: which files each touches, where they overlap or
// conflict when all that are chosen merge together onto the person's
// tree, the order in which they merge cleanly, and how the merged result
// fared under verification.
type FanIn struct {
	// ID names this preview; verifying and applying name it, so what is
	// applied is exactly what was previewed and verified.
	ID      string        `json:"id"`
	Changes []FanInChange `json:"changes"`
	Files   []FanInFile   `json:"files"`
	Order   []AgentID     `json:"order"`
	Left    []FanInLeft   `json:"left,omitempty"`
	Skipped []string      `json:"skipped,omitempty"`
	// Commands verify the merged result (every chosen change's own
	// verify commands); none: it cannot be verified.
	Commands []string `json:"commands,omitempty"`
	// Verify is how the merged result's verification ended; nil until it
	// ran.
	Verify *Verification `json:"verify,omitempty"`
}

// FanInChange is one pending change in the view.
type FanInChange struct {
	Agent       AgentID `json:"agent"`
	Number      int     `json:"number"`
	AgentType   string  `json:"agent_type"`
	Description string  `json:"description"`
	// Chosen says it takes part in the merge.
	Chosen bool `json:"chosen"`
	// Change counts what is still undecided of it.
	Change Change `json:"change"`
}

// FanInFile is one file the chosen changes touch.
type FanInFile struct {
	Path string    `json:"path"`
	By   []AgentID `json:"by"`
	// Conflicting are the changes left out for a conflict in this file.
	Conflicting []AgentID `json:"conflicting,omitempty"`
}

// FanInLeft is a chosen change left out of the merge: it conflicts in
// Path with the changes in With (none: with the person's own edits).
type FanInLeft struct {
	Agent   AgentID   `json:"agent"`
	Path    string    `json:"path"`
	With    []AgentID `json:"with,omitempty"`
	Regions int       `json:"regions"`
}

// Verified reports whether the merged result passed its verification.
func (f FanIn) Verified() bool { return f.Verify != nil && f.Verify.Passed }

// FanInApplied is what applying a merge did.
type FanInApplied struct {
	// Applied are the changes applied, in order; Files the files written.
	Applied []AgentID `json:"applied"`
	Files   []string  `json:"files"`
	// Verify is the merged result's verification (nil: none ran);
	// Unverified says it was applied without passing one.
	Verify     *Verification `json:"verify,omitempty"`
	Unverified bool          `json:"unverified,omitempty"`
}

// Overlap reports whether more than one chosen change touches the file.
func (f FanInFile) Overlap() bool { return len(f.By) > 1 }
