package main

import (
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// keyVar is the variable that holds the API key; keyFDVar tells the
// re-executed baton which inherited descriptor the key waits in.
const (
	keyVar   = "OPENAI_API_KEY"
	keyFDVar = "BATON_KEY_FD"
)

// maxKeyBytes bounds the key handed over; a pipe holds it without a
// reader, so the hand-over cannot block.
const maxKeyBytes = 16 << 10

// hideKey keeps the API key out of baton's process environment. Linux
// shows a process's initial environment in /proc/PID/environ to every
// process of the same user, commands included, and unsetting a variable
// does not change it; so baton overwrites the key there (scrubKey), or,
// where that fails, re-executes itself (same pid) without the key and
// hands it over through a pipe. It returns the environment run works
// with, key included. If both fail baton carries on: the commands still
// never receive the key in their own environment.
func hideKey(environ []string) []string {
	if fd := os.Getenv(keyFDVar); fd != "" {
		return receiveKey(environ, fd)
	}
	key := os.Getenv(keyVar)
	if key == "" || len(key) > maxKeyBytes || scrubKey(key) {
		return environ
	}
	r, w, err := os.Pipe()
	if err != nil {
		return environ
	}
	defer r.Close()
	_, err = w.WriteString(key)
	_ = w.Close()
	if err != nil {
		return environ
	}
	fd := r.Fd()
	if _, err := unix.FcntlInt(fd, unix.F_SETFD, 0); err != nil {
		return environ
	}
	env := slices.DeleteFunc(slices.Clone(environ), func(kv string) bool { return strings.HasPrefix(kv, keyVar+"=") })
	env = append(env, keyFDVar+"="+strconv.Itoa(int(fd)))
	_ = syscall.Exec("/proc/self/exe", os.Args, env)
	return environ // only reached when the exec failed
}

// receiveKey reads the key handed over by hideKey and puts it back in the
// environment run sees (never in the process's own).
func receiveKey(environ []string, fdText string) []string {
	_ = os.Unsetenv(keyFDVar)
	environ = slices.DeleteFunc(slices.Clone(environ), func(kv string) bool { return strings.HasPrefix(kv, keyFDVar+"=") })
	fd, err := strconv.Atoi(fdText)
	if err != nil || fd < 3 {
		return environ
	}
	f := os.NewFile(uintptr(fd), "key")
	defer f.Close()
	key, err := io.ReadAll(io.LimitReader(f, maxKeyBytes))
	if err != nil || len(key) == 0 {
		return environ
	}
	return append(environ, keyVar+"="+string(key))
}
