//go:build !linux

package ui

import "os"

// jobSignals says this system stops and continues jobs by signal: baton
// does so on Linux only, and elsewhere Ctrl+Z says it cannot.
const jobSignals = false

// continueSignal is never watched where jobSignals is false.
var continueSignal os.Signal

// stopJob does nothing: nothing calls it where jobSignals is false.
func stopJob() {}

// stoppable is false: nothing here stops the job.
func stoppable() bool { return false }
