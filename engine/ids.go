package engine

import (
	"fmt"
	"strings"
	"sync/atomic"
)

// idSource hands out readable, session-unique identifiers.
type idSource struct {
	children  atomic.Int64
	approvals atomic.Int64
}

// child returns an id like "explore-3": the type's name and a session-wide
// ordinal, so "/subagents stop 3" and "stop explore-3" both read well.
func (s *idSource) child(typeName string) (AgentID, int) {
	n := int(s.children.Add(1))
	name := strings.ToLower(strings.Join(strings.Fields(typeName), "-"))
	if name == "" {
		name = "agent"
	}
	return AgentID(fmt.Sprintf("%s-%d", name, n)), n
}

// approval returns a fresh approval request id.
func (s *idSource) approval() string {
	return fmt.Sprintf("ap-%d", s.approvals.Add(1))
}
