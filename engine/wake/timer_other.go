//go:build !linux

package wake

import (
	"context"
	"time"
)

// waiter is never made: a wait elsewhere is a Go timer.
type waiter struct{}

func take() *waiter                                  { return nil }
func give(*waiter)                                   {}
func (*waiter) wait(context.Context, time.Time) bool { return false }
