package overlay

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// Layer is an overlay or a card: while it is on top of the stack it takes
// the keys it routes to itself, the screen shows it in its place, and the
// footer shows its keys. What it decides leaves as messages (Close, or a
// component's own); the root never reads a layer's result by a function
// of its own.
type Layer interface {
	// Update takes a key Route sent it, or any other message while the
	// layer is open (every layer sees those; each ignores what is not
	// its own).
	Update(msg tea.Msg) tea.Cmd
	// View draws the layer at the size SetSize gave.
	View() string
	// SetSize fits the layer to its place: the terminal's width, and the
	// lines its place has (see Place).
	SetSize(width, height int)
	// Place says where on the screen the layer is drawn.
	Place() Place
	// Route says where a key goes while the layer is on top.
	Route(msg tea.KeyMsg) Route
	// ShortHelp is the layer's keys for the footer, the most useful
	// first; nil leaves the footer to what is under the layer.
	ShortHelp() []key.Binding
	// FullHelp is every key it takes now, grouped by where it applies;
	// nil spells out ShortHelp as one group.
	FullHelp() []KeyGroup
}

// Quitter is a layer that answers ctrl+c itself while it is on top: the
// quit question, where a second ctrl+c means quit. The root asks the top
// layer, whatever it is, and never the question by its type.
type Quitter interface {
	// Quit is the layer's answer to ctrl+c.
	Quit() tea.Cmd
}

// Place is where a layer is drawn.
type Place int

// The places, from the whole screen to the input's line.
const (
	// Screen is the whole terminal (a review).
	Screen Place = iota
	// Page is everything between the header and the status line (a
	// transcript).
	Page
	// Body is the bottom of the body, the conversation kept above it (the
	// cards, the model picker).
	Body
	// Input is the prompt box's place (a message for a child).
	Input
)

// Route is where a key goes while a layer is on top.
type Route int

// The routes.
const (
	// Take gives the key to the layer's Update.
	Take Route = iota
	// Help is the root's help key: the layer lets ? spell its keys out.
	Help
	// TypeAhead types the key into the prompt box: a card not yet armed
	// takes no key, so nothing typed while it appeared answers it.
	TypeAhead
)

// Open is the message that puts a layer on top of the stack. It is made
// in Update (a component's, or a Cmd's result carries a layer made
// there), so the layer reads the styles only on the Update goroutine.
type Open struct{ Layer Layer }

// Close is the message that takes a layer off the stack, wherever it is:
// what was under it has the keys again.
type Close struct{ Layer Layer }

// Restyle is given to every open layer when the theme changes: what it
// drew, or styles it copied, are stale.
type Restyle struct{}

// Show is the Cmd that opens l.
func Show(l Layer) tea.Cmd { return func() tea.Msg { return Open{Layer: l} } }

// Hide is the Cmd that closes l.
func Hide(l Layer) tea.Cmd { return func() tea.Msg { return Close{Layer: l} } }
