package tools

import (
	"context"
	"testing"
)

// TestCallRefTravelsWithTheCall: the call a tool runs for is read back
// from its context, and a context without one says so.
func TestCallRefTravelsWithTheCall(t *testing.T) {
	ref := CallRef{Agent: "child-2", ID: "call_7"}
	if got, ok := CallRefOf(WithCallRef(context.Background(), ref)); !ok || got != ref {
		t.Errorf("CallRefOf = %+v, %v", got, ok)
	}
	if _, ok := CallRefOf(context.Background()); ok {
		t.Error("a context without a call names one")
	}
}
