package sandbox

import "fmt"

// networkNote qualifies "network off" where the kernel enforces less: a
// command with a network namespace of its own, or under the seccomp
// filter, has no network at all; Landlock alone stops only TCP below ABI
// 10, and nothing below ABI 4.
func networkNote() string {
	if NetworkIsolated() || filterAvailable() {
		return ""
	}
	switch v := abi(); {
	case v < 4:
		return fmt.Sprintf("not enforced: Landlock ABI %d has no network rules", v)
	case v < 10:
		return "TCP only: UDP still goes out"
	}
	return ""
}

// socketNote says which Unix sockets outside the workspace commands can
// still reach, "" when none: isolated commands find the pathname ones
// covered and Landlock (ABI 6) scopes the abstract ones, or their own
// network namespace holds none; from ABI 9 Landlock holds both; else the
// seccomp filter takes Unix sockets away altogether, the workspace's
// included.
func (p Policy) socketNote() string {
	switch {
	case abi() >= 9:
		return ""
	case Isolated():
		if abi() >= 6 || !p.Network && NetworkIsolated() {
			return ""
		}
		return "abstract Unix sockets reachable"
	case filterAvailable():
		return "Unix sockets off"
	}
	return "Unix sockets outside the workspace reachable"
}
