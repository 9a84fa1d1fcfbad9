package sandbox

import (
	"errors"
	"fmt"
	"os"
	"slices"

	"golang.org/x/sys/unix"
)

// Started by root, a command would run as root with every capability,
// and some of them reach past Landlock and the namespaces: loading a
// kernel module, setting the host's name or clock, configuring the
// host's network, opening files by handle (past the covers over the
// sockets). So a command root starts keeps only the capabilities root
// needs to work with files (the set container engines leave by default,
// less the raw network and device ones): it can still chown and read
// what it owns, but nothing more.

// keptCapabilities are what a command started by root keeps.
var keptCapabilities = []int{
	unix.CAP_CHOWN, unix.CAP_DAC_OVERRIDE, unix.CAP_FOWNER, unix.CAP_FSETID,
	unix.CAP_KILL, unix.CAP_SETGID, unix.CAP_SETUID, unix.CAP_NET_BIND_SERVICE,
}

// dropCapabilities takes every other capability out of the bounding set
// of the calling thread, so that what it execs as root gets none of
// them, and clears the ambient set. It does nothing for other users,
// whose commands gain no capability on exec.
func dropCapabilities() error {
	if os.Geteuid() != 0 {
		return nil
	}
	for c := 0; c < 64; c++ {
		if slices.Contains(keptCapabilities, c) {
			continue
		}
		// One not in the set is gone already: in a container started
		// without capabilities (baton's container runner), dropping
		// it would need the capability to drop capabilities.
		in, err := unix.PrctlRetInt(unix.PR_CAPBSET_READ, uintptr(c), 0, 0, 0)
		if errors.Is(err, unix.EINVAL) {
			break // past the last capability this kernel knows
		}
		if err == nil && in == 0 {
			continue
		}
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil {
			if errors.Is(err, unix.EINVAL) {
				break
			}
			return fmt.Errorf("drop capability %d: %w", c, err)
		}
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil {
		return fmt.Errorf("clear ambient capabilities: %w", err)
	}
	return nil
}
