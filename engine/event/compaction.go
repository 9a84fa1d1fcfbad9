package event

// CompactionStarted says the main agent's history is being replaced by a
// model-written summary: asked for with /compact (Auto false, Focus what
// the person asked it to keep) or because the context passed the
// configured fill (Auto true, announced, never silent).
type CompactionStarted struct {
	Meta
	Focus string `json:"focus,omitempty"`
	Auto  bool   `json:"auto,omitempty"`
	// Fill is how full the context was, 0..1, for an automatic one.
	Fill float64 `json:"fill,omitempty"`
}

// Compacted ends a compaction. On success Summary replaced Replaced
// messages of the history (a resumed session starts from it too); on
// failure Error says why and the history is as it was.
type Compacted struct {
	Meta
	Focus    string `json:"focus,omitempty"`
	Auto     bool   `json:"auto,omitempty"`
	Summary  string `json:"summary,omitempty"`
	Replaced int    `json:"replaced,omitempty"`
	Usage    Usage  `json:"usage"`
	Error    string `json:"error,omitempty"`
}

// Kind implements Event.
func (CompactionStarted) Kind() string { return "compaction_started" }

// Kind implements Event.
func (Compacted) Kind() string { return "compacted" }
