//go:build !linux

package tools

import (
	"os"
	"syscall"
)

// folderIdentity tells a folder from another that took its place, as
// far as the device and inode numbers can.
func folderIdentity(path string) [4]uint64 {
	info, err := os.Lstat(path)
	if err != nil {
		return [4]uint64{}
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return [4]uint64{}
	}
	return [4]uint64{uint64(st.Dev), uint64(st.Ino)}
}

// changeStamp is "" here: without a change time the kernel keeps, a
// file's state cannot be told from a later one with its times put back,
// so nothing is cached by it.
func changeStamp(string) string { return "" }
