package residency

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestMain is also the child of TestPrivateCopyOfCodeSurvives.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "copied" {
		fmt.Println(copyThenDrop())
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// childEnv makes the test binary one of the tests' children.
const childEnv = "BATON_RESIDENCY_CHILD"

// residentFileKiB is this process's resident file-backed memory.
func residentFileKiB() int {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		panic(err)
	}
	for line := range bytes.Lines(status) {
		if v, ok := bytes.CutPrefix(line, []byte("RssFile:")); ok {
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(string(v)), " kB"))
			if err != nil {
				panic(err)
			}
			return n
		}
	}
	panic("no RssFile in /proc/self/status")
}

func TestDropCodeLetsGoOfTheCodeStartUpRan(t *testing.T) {
	before := residentFileKiB()
	DropCode()
	after := residentFileKiB()
	if before-after < 256 {
		t.Fatalf("resident file pages %d KiB before dropping the code, %d KiB after: nothing was let go", before, after)
	}
	// The code runs on, mapped again as it runs.
	if got := strconv.Itoa(42) + strings.Repeat("!", 2); got != "42!!" {
		t.Fatalf("the code after the drop computed %q", got)
	}
}

func TestCodeRangesAreTheProgramsTextOnly(t *testing.T) {
	const maps = `00400000-00c00000 r-xp 00000000 fe:00 77 /usr/bin/baton (deleted)
00c00000-01400000 r--p 00800000 fe:00 77 /usr/bin/baton (deleted)
01400000-01500000 rw-p 01000000 fe:00 77 /usr/bin/baton (deleted)
01500000-01600000 rw-p 00000000 00:00 0
7f0000000000-7f0000100000 r-xp 00000000 fe:00 99 /usr/lib/libother.so
7f0000100000-7f0000180000 r-xp 00000000 fe:01 77 /mnt/other/inode-77-on-another-device
00000020-00000010 r-xp 00000000 fe:00 77 /usr/bin/baton (a range that ends before it starts)
7f0000200000-7f0000300000 r-xp 00000000 00:00 0
7ffd00000000-7ffd00002000 r-xp 00000000 00:00 0 [vdso]
`
	cases := []struct {
		name string
		pc   uint64
		want []addrRange
	}{
		{"the program's text, whatever its path became", 0x00401000, []addrRange{{0x00400000, 0x00c00000}}},
		{"code in anonymous memory, as a packed binary's", 0x7f0000200010, nil},
		{"an address in data", 0x01400010, nil},
		{"an address in no mapping", 0x10, nil},
	}
	for _, c := range cases {
		got := codeRanges([]byte(maps), c.pc)
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s: ranges %v, want %v", c.name, got, c.want)
		}
	}
	for _, pc := range []uint64{0, 0x15} {
		if got := codeRanges([]byte("garbage\n0-0 r-xp 0 fe:00 1 /x\nzz-10 r-xp 0 fe:00 1 /x\n20-10 r-xp 0 fe:00 1 /x\n"), pc); got != nil {
			t.Errorf("malformed maps gave %v for pc %#x", got, pc)
		}
	}
}

// copyTarget is the function whose code page the copied child writes.
//
//go:noinline
func copyTarget() int { return 7 }

// copyThenDrop writes a byte of copyTarget's code over itself through
// /proc/self/mem, as a debugger's breakpoint (ptrace writes the same
// way) or a uprobe writes into code: the page
// becomes a private copy, its content unchanged. Then it drops the code
// and says whether the copy is still there ("kept"), or "no copy" when
// the write made none.
func copyThenDrop() string {
	addr := uint64(reflect.ValueOf(copyTarget).Pointer())
	mem, err := os.OpenFile("/proc/self/mem", os.O_RDWR, 0)
	if err != nil {
		return "no copy: " + err.Error()
	}
	defer mem.Close()
	b := make([]byte, 1)
	if _, err := mem.ReadAt(b, int64(addr)); err != nil {
		return "no copy: " + err.Error()
	}
	if _, err := mem.WriteAt(b, int64(addr)); err != nil {
		return "no copy: " + err.Error()
	}
	page := uint64(os.Getpagesize())
	at := addrRange{addr / page * page, addr/page*page + page}
	if copied, err := privateCopies([]addrRange{at}); err != nil || !copied {
		return fmt.Sprintf("no copy: %v", err)
	}
	DropCode()
	if copyTarget() != 7 {
		return "broken"
	}
	if copied, _ := privateCopies([]addrRange{at}); copied {
		return "kept"
	}
	return "dropped"
}

// A uprobe, a debugger's breakpoint or a text relocation is a private
// copy of a code page: dropping the code would undo it.
func TestPrivateCopyOfCodeSurvives(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=copied", "GORACE=atexit_sleep_ms=0")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the child failed: %v", err)
	}
	got := strings.TrimSpace(string(out))
	if strings.HasPrefix(got, "no copy") {
		t.Skipf("writing into code through /proc/self/mem made no private copy here (%s)", got)
	}
	if got != "kept" {
		t.Fatalf("the private copy of a code page was %s by DropCode", got)
	}
}
