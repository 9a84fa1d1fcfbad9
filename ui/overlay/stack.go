package overlay

import tea "github.com/charmbracelet/bubbletea"

// InputRows is the height of a layer in the input's place: one framed
// line.
const InputRows = 3

// Stack is the open layers, the top one last. A layer pushed over another
// leaves it open underneath: the cards that interrupt a transcript give
// the keys back to it once answered, so "behind" is simply the stack.
type Stack struct{ layers []Layer }

// Push puts l on top; a layer already open moves to the top.
func (s *Stack) Push(l Layer) {
	s.Remove(l)
	s.layers = append(s.layers, l)
}

// Remove takes l off the stack wherever it is; it reports whether l was
// open.
func (s *Stack) Remove(l Layer) bool {
	for i, open := range s.layers {
		if open == l {
			s.layers = append(s.layers[:i:i], s.layers[i+1:]...)
			return true
		}
	}
	return false
}

// Top is the layer that has the keys, nil when none is open.
func (s *Stack) Top() Layer {
	if len(s.layers) == 0 {
		return nil
	}
	return s.layers[len(s.layers)-1]
}

// Has says whether l is open.
func (s *Stack) Has(l Layer) bool {
	for _, open := range s.layers {
		if open == l {
			return true
		}
	}
	return false
}

// Len is how many layers are open.
func (s *Stack) Len() int { return len(s.layers) }

// All is the open layers, the bottom one first.
func (s *Stack) All() []Layer { return s.layers }

// Update gives a message that is not a key to every open layer, each of
// which ignores what is not its own (a review's reload, a card's guard).
func (s *Stack) Update(msg tea.Msg) tea.Cmd {
	cmds := make([]tea.Cmd, 0, len(s.layers))
	for _, l := range s.layers {
		cmds = append(cmds, l.Update(msg))
	}
	return tea.Batch(cmds...)
}
