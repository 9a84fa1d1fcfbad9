// Package event holds what a session reports: the events on its channel,
// approval requests with their answers, run statuses and usage. It depends
// on nothing but the standard library, so the UI can consume a session
// without depending on the model client behind it.
package event
