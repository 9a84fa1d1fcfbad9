package main

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// scrubKey overwrites the API key's value in the process's initial
// environment, the memory /proc/PID/environ shows, through /proc/self/mem;
// Go copied the environment at start, so nothing of baton reads that
// memory again. It reports whether /proc/self/environ no longer holds the
// key, so the caller can fall back to re-executing without it. It costs
// three small file reads, where a re-exec pays for a second start.
func scrubKey(key string) bool {
	if key == "" {
		return true
	}
	start, end, err := environBounds()
	if err != nil || end <= start || end-start > 1<<24 {
		return false
	}
	mem, err := os.OpenFile("/proc/self/mem", os.O_RDWR, 0)
	if err != nil {
		return false
	}
	defer mem.Close()
	area := make([]byte, end-start)
	if _, err := mem.ReadAt(area, int64(start)); err != nil {
		return false
	}
	entry := []byte(keyVar + "=")
	for off := 0; off < len(area); {
		line := area[off:]
		if i := bytes.IndexByte(line, 0); i >= 0 {
			line = line[:i]
		}
		if bytes.HasPrefix(line, entry) {
			value := bytes.Repeat([]byte{'*'}, len(line)-len(entry))
			if _, err := mem.WriteAt(value, int64(start)+int64(off+len(entry))); err != nil {
				return false
			}
		}
		off += len(line) + 1
	}
	shown, err := os.ReadFile("/proc/self/environ")
	return err == nil && !bytes.Contains(shown, []byte(key))
}

// environBounds reads env_start and env_end, the 50th and 51st fields of
// /proc/self/stat, counted after the parenthesised command name (which
// may hold spaces).
func environBounds() (start, end uint64, err error) {
	stat, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return 0, 0, err
	}
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, 0, fmt.Errorf("read /proc/self/stat: no command name")
	}
	// Fields after the name start with the 3rd (state).
	fields := strings.Fields(string(stat[i+1:]))
	const envStart, envEnd = 50 - 3, 51 - 3
	if len(fields) <= envEnd {
		return 0, 0, fmt.Errorf("read /proc/self/stat: %d fields", len(fields)+2)
	}
	if start, err = strconv.ParseUint(fields[envStart], 10, 64); err != nil {
		return 0, 0, err
	}
	end, err = strconv.ParseUint(fields[envEnd], 10, 64)
	return start, end, err
}
