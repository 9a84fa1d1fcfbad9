package tools

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// folderIdentity tells a folder from another that took its place: its
// device, inode and birth time, since a new folder often gets the inode
// the removed one freed. Zero when the kernel says nothing.
func folderIdentity(path string) [4]uint64 {
	var st unix.Statx_t
	if unix.Statx(unix.AT_FDCWD, path, unix.AT_SYMLINK_NOFOLLOW, unix.STATX_INO|unix.STATX_BTIME, &st) != nil {
		return [4]uint64{}
	}
	id := [4]uint64{uint64(st.Dev_major)<<32 | uint64(st.Dev_minor), st.Ino}
	if st.Mask&unix.STATX_BTIME != 0 {
		id[2], id[3] = uint64(st.Btime.Sec), uint64(st.Btime.Nsec)
	}
	return id
}

// changeStamp tells a file's state from any later one: its identity,
// size and times, the change time included, which no one but the kernel
// sets. "" when the kernel says nothing.
func changeStamp(path string) string {
	var st unix.Statx_t
	mask := uint32(unix.STATX_INO | unix.STATX_SIZE | unix.STATX_MTIME | unix.STATX_CTIME)
	if unix.Statx(unix.AT_FDCWD, path, unix.AT_SYMLINK_NOFOLLOW, int(mask), &st) != nil || st.Mask&mask != mask {
		return ""
	}
	return fmt.Sprintf("%d:%d/%d/%d/%d.%d/%d.%d", st.Dev_major, st.Dev_minor, st.Ino, st.Size,
		st.Mtime.Sec, st.Mtime.Nsec, st.Ctime.Sec, st.Ctime.Nsec)
}
