// Package transcript keeps baton's sessions on disk so that nothing a
// person or an agent did is lost when baton exits, crashes or is killed.
//
// A Store holds one folder per project (the workspace's base name plus a
// short hash of its absolute path) and, inside it, one folder per session
// named by a short, time-sortable id such as "20261125-2143-k3f9". Each
// agent of a session writes its own JSON Lines file: main.jsonl for the
// main agent, <child id>.jsonl for every child. One line is one Record:
//
//	{"time":"RFC3339Nano","kind":"event"|"message"|"meta","agent":"main","data":{...}}
//
// The package deals in generic records and never imports the engine: the
// engine marshals its events (with a "type" field) and chat messages into
// Data, and reads them back to resume.
//
// Durability: Append hands each whole line to the kernel in one write(2)
// on a file opened O_APPEND before it returns. From then on the record
// survives the process being killed (even by SIGKILL), because it lives in
// the page cache, not in a user-space buffer. Append does not fsync: that
// costs a disk flush per record (see BenchmarkAppend) and only matters for
// a power loss or kernel crash. Writer.Sync covers that case at moments
// that are cheap to wait for, such as the end of a turn, and Close syncs.
//
// Reading is tolerant: a last line cut short by a crash is dropped and
// reported, a corrupt line in the middle is skipped and reported, and
// everything else is kept (see Truncation).
package transcript
