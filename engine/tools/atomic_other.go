//go:build !linux

package tools

import (
	"errors"
	"os"
)

// errNoUnnamed says this system has no unnamed temporary files.
var errNoUnnamed = errors.New("unnamed temporary files are Linux only")

// openUnnamed always fails here: the caller names its temporary file.
func openUnnamed(string) (*os.File, error) { return nil, errNoUnnamed }

// linkTemp is never reached: openUnnamed never succeeds here.
func linkTemp(*os.File, string, string) (string, error) { return "", errNoUnnamed }
