//go:build unix

package repofile

import "syscall"

// openFlags open without blocking (a FIFO with no writer, a terminal) and
// without becoming the controlling terminal, and refuse a final symlink:
// the path was resolved already, so one appearing now is a swap.
const openFlags = syscall.O_RDONLY | syscall.O_NONBLOCK | syscall.O_NOCTTY | syscall.O_NOFOLLOW

// toolOpenFlags are openFlags without O_NOFOLLOW, for paths a tool has
// already confined to the workspace through their symlinks.
const toolOpenFlags = openFlags &^ syscall.O_NOFOLLOW
