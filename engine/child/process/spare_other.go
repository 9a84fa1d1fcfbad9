//go:build !linux

package process

import "errors"

// exited is never asked: spares are started on Linux only.
func exited(int) bool { return true }

// adopt fails: spares are started on Linux only.
func adopt(*spec) error { return errors.New("a spare child process needs Linux") }
