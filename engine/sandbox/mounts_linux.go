package sandbox

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// Landlock grants a folder with everything below it, and a folder that
// must stay writable (the workspace, .git) cannot have a file inside it
// taken out of the grant. The command's own mount namespace can: the
// supervisor, its init, mounts each path over itself before the command
// starts. A protected file or folder becomes a read-only mount (writes
// fail with EROFS), a pinned folder a mount of its own (moving, removing
// or replacing it fails with EBUSY, since it is a mount point), a socket
// a read-only /dev/null (connect finds no socket). The mounts exist only
// in the command's namespace; the command can neither undo them (Landlock
// refuses mount and umount to a sandboxed process, and in a user
// namespace they are locked to it) nor reach the files beneath.

// hold is the supervisor's mounts, in order: pins first, so that the
// protected paths inside a pinned folder are mounted on the pin.
func hold(pinned, protected, sockets []string) error {
	for _, dir := range pinned {
		if err := bindSelf(dir, false); err != nil {
			return fmt.Errorf("pin %s: %w", dir, err)
		}
	}
	for _, path := range protected {
		if err := bindSelf(path, true); err != nil {
			return fmt.Errorf("protect %s: %w", path, err)
		}
	}
	if len(sockets) == 0 {
		return nil
	}
	null, err := openNoLinks("/dev/null")
	if err != nil {
		return fmt.Errorf("cover sockets: %w", err)
	}
	defer unix.Close(null)
	for _, sock := range sockets {
		if err := cover(sock, null); err != nil {
			return fmt.Errorf("cover socket %s: %w", sock, err)
		}
	}
	return nil
}

// bindSelf mounts path over itself, read-only or not. A path that is gone
// (or became a link) is skipped: run_command's check after the command
// still sees it.
func bindSelf(path string, readOnly bool) error {
	fd, err := openNoLinks(path)
	if gone(err) {
		return nil
	}
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	return mountOver(fd, fd, readOnly)
}

// cover mounts a clone of the /dev/null mount, read-only, over a socket.
func cover(sock string, null int) error {
	fd, err := openNoLinks(sock)
	if gone(err) {
		return nil
	}
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFSOCK {
		return nil // no longer a socket: nothing to cover
	}
	return mountOver(null, fd, true)
}

// mountOver clones the mount at src (that file or folder alone) and
// attaches the clone over dst.
func mountOver(src, dst int, readOnly bool) error {
	tree, err := unix.OpenTree(src, "", unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_EMPTY_PATH)
	if err != nil {
		return fmt.Errorf("open_tree: %w", err)
	}
	defer unix.Close(tree)
	if readOnly {
		attr := unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}
		if err := unix.MountSetattr(tree, "", unix.AT_EMPTY_PATH, &attr); err != nil {
			return fmt.Errorf("mount_setattr: %w", err)
		}
	}
	if err := unix.MoveMount(tree, "", dst, "", unix.MOVE_MOUNT_F_EMPTY_PATH|unix.MOVE_MOUNT_T_EMPTY_PATH); err != nil {
		return fmt.Errorf("move_mount: %w", err)
	}
	return nil
}

// openNoLinks opens path as a location only, refusing links anywhere on
// the way: the paths come resolved, so a link there is one made since.
func openNoLinks(path string) (int, error) {
	return unix.Openat2(unix.AT_FDCWD, path, &unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_CLOEXEC | unix.O_NOFOLLOW,
		Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	})
}

// gone reports an open that failed because the path is no longer there
// as it was.
func gone(err error) bool {
	return errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR)
}
