//go:build !linux

package process

import (
	"errors"
	"os"
	"time"
)

// exited is never asked: spares are started on Linux only.
func exited(int) bool { return true }

// waiting is never asked: spares are started on Linux only.
func waiting(*os.File) bool { return false }

// quietFor is never asked: spares are started on Linux only.
func quietFor(*os.File, time.Duration) bool { return false }

// adopt fails: spares are started on Linux only.
func adopt(*spec) error { return errors.New("a spare child process needs Linux") }
