package residency

import (
	"bytes"
	"encoding/binary"
	"os"
	"reflect"
	"slices"
	"strconv"
	"syscall"
)

// DropCode discards, in this process only, the page-table entries of
// every page of the program's machine code; the code it runs afterwards
// maps again from the page cache as it runs. It does nothing when the
// code is not a read-only mapping of a file (a packed binary unpacks its
// code into anonymous memory, which dropping would zero), when any page
// of it is a private copy (a uprobe of perf or bpftrace, a debugger's
// breakpoint, a text relocation: dropping would undo them), or when any
// of that cannot be read. A tracer that has written nothing into the code
// loses nothing; one that writes into it in the microseconds between the
// check and the drop loses what it wrote (the drop happens once, as the
// program starts).
func DropCode() {
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return
	}
	ranges := codeRanges(maps, uint64(reflect.ValueOf(DropCode).Pointer()))
	if copied, err := privateCopies(ranges); err != nil || copied {
		return
	}
	for _, r := range ranges {
		_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, uintptr(r.start), uintptr(r.end-r.start), syscall.MADV_DONTNEED)
	}
}

// Bits of a page's entry in /proc/self/pagemap.
const (
	pagePresent = 1 << 63
	pageSwapped = 1 << 62
	pageFile    = 1 << 61
)

// privateCopies reports whether any page of ranges, mapped or swapped
// out, is anonymous memory rather than the file's: a private copy
// written into the mapping.
func privateCopies(ranges []addrRange) (bool, error) {
	if len(ranges) == 0 {
		return false, nil
	}
	f, err := os.Open("/proc/self/pagemap")
	if err != nil {
		return false, err
	}
	defer f.Close()
	size := uint64(os.Getpagesize())
	for _, r := range ranges {
		// An entry of 8 bytes a page, at the page's number.
		buf := make([]byte, (r.end-r.start)/size*8)
		if _, err := f.ReadAt(buf, int64(r.start/size*8)); err != nil {
			return false, err
		}
		for e := range slices.Chunk(buf, 8) {
			entry := binary.NativeEndian.Uint64(e)
			if entry&(pagePresent|pageSwapped) != 0 && entry&pageFile == 0 {
				return true, nil
			}
		}
	}
	return false, nil
}

// addrRange is one mapping's addresses, end excluded.
type addrRange struct{ start, end uint64 }

// codeRanges are the mappings in maps (the text of /proc/self/maps) of
// the file whose executable mapping holds pc, when they are private,
// read-only and executable: the program's text. Any other shape of the
// mapping that holds pc gives none.
func codeRanges(maps []byte, pc uint64) []addrRange {
	var all []mapping
	var file []byte
	for line := range bytes.Lines(maps) {
		m, ok := parseMapping(line)
		if !ok {
			continue
		}
		all = append(all, m)
		if m.start <= pc && pc < m.end {
			if m.perms != "r-xp" || m.inode == "0" {
				return nil
			}
			file = m.file
		}
	}
	var ranges []addrRange
	for _, m := range all {
		if file != nil && m.perms == "r-xp" && bytes.Equal(m.file, file) {
			ranges = append(ranges, m.addrRange)
		}
	}
	return ranges
}

// mapping is one line of /proc/self/maps.
type mapping struct {
	addrRange
	perms string
	inode string
	// file is the device and inode, which name the mapped file whatever
	// its path has become.
	file []byte
}

// parseMapping reads one line of /proc/self/maps: addresses, permissions,
// offset, device, inode, then the path.
func parseMapping(line []byte) (mapping, bool) {
	f := bytes.Fields(line)
	if len(f) < 5 {
		return mapping{}, false
	}
	lo, hi, ok := bytes.Cut(f[0], []byte("-"))
	if !ok {
		return mapping{}, false
	}
	start, err1 := strconv.ParseUint(string(lo), 16, 64)
	end, err2 := strconv.ParseUint(string(hi), 16, 64)
	if err1 != nil || err2 != nil || end <= start {
		return mapping{}, false
	}
	file := append(append(append([]byte{}, f[3]...), ' '), f[4]...)
	return mapping{addrRange: addrRange{start, end}, perms: string(f[1]), inode: string(f[4]), file: file}, true
}
