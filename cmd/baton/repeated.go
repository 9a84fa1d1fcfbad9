package main

import (
	"strings"

	"github.com/spf13/pflag"
)

// repeated is the value of a flag given as often as wanted, each value
// kept in order: what pflag's StringArray reads, without its way of
// showing a default. pflag writes a StringArray's default through
// encoding/csv as the flag is declared, a 4 KiB buffer and that
// package's code for each of the five at every start (a headless run's
// peak RSS, issue 33); none of them has a default to show.
type repeated []string

// Set adds one value.
func (r *repeated) Set(value string) error {
	*r = append(*r, value)
	return nil
}

// String is the values as given, comma-separated: empty until one is.
func (r *repeated) String() string { return strings.Join(*r, ",") }

// Type names the value for pflag.
func (r *repeated) Type() string { return "strings" }

// repeatedFlag declares a repeatable flag on fs.
func repeatedFlag(fs *pflag.FlagSet, name, usage string) {
	fs.Var(new(repeated), name, usage)
}

// repeatedValues returns the values given for the repeatable flag name.
func repeatedValues(fs *pflag.FlagSet, name string) []string {
	return *fs.Lookup(name).Value.(*repeated)
}
