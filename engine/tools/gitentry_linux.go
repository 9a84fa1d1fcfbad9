package tools

import "golang.org/x/sys/unix"

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
