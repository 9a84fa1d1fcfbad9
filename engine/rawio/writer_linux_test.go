package rawio

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// smallPipe is a pipe that holds one page, its write end blocking as a
// shell's is.
func smallPipe(t *testing.T) (r, w *os.File, size int) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	size, err = unix.FcntlInt(w.Fd(), unix.F_SETPIPE_SZ, 4096)
	if err != nil {
		t.Fatal(err)
	}
	return r, w, size
}

// flags reads the file status flags of f's description.
func flags(t *testing.T, f *os.File) int {
	t.Helper()
	raw, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var fl int
	if cerr := raw.Control(func(fd uintptr) { fl, err = unix.FcntlInt(fd, unix.F_GETFL, 0) }); cerr != nil {
		t.Fatal(cerr)
	}
	if err != nil {
		t.Fatal(err)
	}
	return fl
}

// buffered is how many bytes wait in the pipe or terminal r reads.
func buffered(t *testing.T, r *os.File) int {
	t.Helper()
	n, err := unix.IoctlGetInt(int(r.Fd()), unix.TIOCINQ)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// pattern is n bytes that show where a byte went missing or twice.
func pattern(n int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "%07d\n", i)
	}
	return b.Bytes()[:n]
}

// The raw step never waits: into a full pipe it writes nothing, into a
// pipe with room it writes what fits, and leaves the rest.
func TestWriteNowNeverWaits(t *testing.T) {
	_, w, size := smallPipe(t)
	raw, _ := w.SyscallConn()
	var n int
	var how attempt
	_ = raw.Control(func(fd uintptr) { n, how = writeNow(fd, noWait, pattern(3*size)) })
	if how == unsupported {
		t.Skip("this kernel cannot write a pipe with RWF_NOWAIT")
	}
	if how != wrote || n != size {
		t.Fatalf("into an empty pipe of %d: %d bytes (%v), want all it holds", size, n, how)
	}
	_ = raw.Control(func(fd uintptr) { n, how = writeNow(fd, noWait, []byte("more")) })
	if how != wouldWait || n != 0 {
		t.Fatalf("into a full pipe: %d bytes (%v), want none and wouldWait", n, how)
	}
}

// A reader that stops reading (`baton -p … | less`) stalls the write,
// which finishes once the reader reads on, every byte once and in order;
// the raw step never blocks (TestWriteNowNeverWaits), so what waits is
// the usual write, as the runtime expects. The shell's description is
// never made non-blocking.
func TestAStalledReaderStallsTheWriteAndLosesNothing(t *testing.T) {
	r, w, size := smallPipe(t)
	before := flags(t, w)
	want := pattern(8 * size)
	wr := NewWriter(w)
	type result struct {
		n   int
		err error
	}
	done := make(chan result)
	go func() {
		n, err := wr.Write(want)
		done <- result{n, err}
	}()
	// The pipe fills while nobody reads.
	for buffered(t, r) < size {
		runtime.Gosched()
	}
	got, err := io.ReadAll(io.LimitReader(r, int64(len(want))))
	if err != nil {
		t.Fatal(err)
	}
	res := <-done
	if res.err != nil || res.n != len(want) {
		t.Fatalf("Write = %d, %v; want %d, nil", res.n, res.err, len(want))
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("the reader got %d bytes that differ from the %d written", len(got), len(want))
	}
	if after := flags(t, w); after != before || after&unix.O_NONBLOCK != 0 {
		t.Fatalf("the pipe's flags went from %#x to %#x", before, after)
	}
}

// Writes through one Writer from several goroutines arrive whole, one
// after another, even when each is cut short by a full pipe.
func TestConcurrentWritesDoNotInterleave(t *testing.T) {
	r, w, size := smallPipe(t)
	wr := NewWriter(w)
	const writers = 4
	block := func(i int) []byte { return bytes.Repeat([]byte{byte('a' + i)}, 3*size/2) }
	var wg sync.WaitGroup
	for i := range writers {
		wg.Go(func() {
			if _, err := wr.Write(block(i)); err != nil {
				t.Error(err)
			}
		})
	}
	got := make([]byte, writers*len(block(0)))
	if _, err := io.ReadFull(r, got); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	for len(got) > 0 {
		c := got[0]
		i := int(c - 'a')
		if i < 0 || i >= writers || !bytes.Equal(got[:len(block(i))], block(i)) {
			t.Fatalf("a write was interleaved with another: %q…", got[:min(len(got), 40)])
		}
		got = got[len(block(i)):]
	}
}

// A regular file keeps the one offset its description has, shared with
// the shell and any other descriptor of it (2>&1), and O_APPEND.
func TestARegularFileKeepsItsOffsetAndAppend(t *testing.T) {
	dir := t.TempDir()
	appended, err := os.OpenFile(dir+"/append", os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer appended.Close()
	other, err := os.OpenFile(dir+"/append", os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	shared, err := os.Create(dir + "/shared")
	if err != nil {
		t.Fatal(err)
	}
	defer shared.Close()
	dupFD, err := unix.Dup(int(shared.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	dup := os.NewFile(uintptr(dupFD), "dup")
	defer dup.Close()
	for _, step := range []struct {
		f    io.Writer
		text string
	}{
		{other, "one "}, {NewWriter(appended), "two "}, {other, "three "},
		{NewWriter(shared), "1 "}, {dup, "2 "}, {NewWriter(dup), "3"},
	} {
		if n, err := step.f.Write([]byte(step.text)); err != nil || n != len(step.text) {
			t.Fatalf("write %q: %d, %v", step.text, n, err)
		}
	}
	for name, want := range map[string]string{"append": "one two three ", "shared": "1 2 3"} {
		got, err := os.ReadFile(dir + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Fatalf("%s holds %q, want %q", name, got, want)
		}
	}
}

// A description that was non-blocking stays so: the Writer never asks
// for the descriptor with Fd, which would make it blocking under the
// process that shares it.
func TestANonBlockingDescriptionStaysNonBlocking(t *testing.T) {
	var fds [2]int
	if err := unix.Pipe2(fds[:], unix.O_NONBLOCK|unix.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	r, w := os.NewFile(uintptr(fds[0]), "r"), os.NewFile(uintptr(fds[1]), "w")
	defer r.Close()
	defer w.Close()
	if _, err := NewWriter(w).Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	if flags(t, w)&unix.O_NONBLOCK == 0 {
		t.Fatal("the description was made blocking")
	}
	got := make([]byte, 1)
	if n, err := r.Read(got); n != 1 || err != nil || got[0] != 'x' {
		t.Fatalf("read %q, %v; want x", got[:n], err)
	}
}

// A socket (an SDK's stdio) is written raw; one whose peer is gone fails
// the write with EPIPE, and the process lives on.
func TestASocketAndABrokenOne(t *testing.T) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	ours, peer := os.NewFile(uintptr(fds[0]), "ours"), os.NewFile(uintptr(fds[1]), "peer")
	defer ours.Close()
	w := NewWriter(ours)
	if _, err := w.Write([]byte("hi")); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 2)
	if _, err := io.ReadFull(peer, got); err != nil || string(got) != "hi" {
		t.Fatalf("peer read %q, %v", got, err)
	}
	peer.Close()
	if _, err := w.Write([]byte("gone")); !errors.Is(err, syscall.EPIPE) {
		t.Fatalf("a write to a closed peer: %v, want EPIPE", err)
	}
}

// A terminal is written through a description of its own, non-blocking,
// while the one the shell shares stays blocking: into a terminal nobody
// reads the raw step writes what fits and never waits, the rest waits in
// the usual write, and every byte arrives once, in order. Close closes
// only what was opened.
func TestATerminalIsWrittenThroughItsOwnDescription(t *testing.T) {
	master, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer master.Close()
	defer tty.Close()
	// Raw, so the terminal passes bytes as they are.
	tio, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	tio.Oflag &^= unix.OPOST
	tio.Lflag &^= unix.ECHO | unix.ICANON
	if err := unix.IoctlSetTermios(int(tty.Fd()), unix.TCSETS, tio); err != nil {
		t.Fatal(err)
	}
	before := flags(t, tty)
	w := NewWriter(tty)
	w.choose()
	if w.own < 0 || w.way != nonBlocking {
		t.Fatal("the terminal is not written through a description of its own")
	}
	var own, shared unix.Stat_t
	if unix.Fstat(w.own, &own) != nil || unix.Fstat(int(tty.Fd()), &shared) != nil || own.Rdev != shared.Rdev {
		t.Fatal("the description opened is not the terminal's")
	}
	want := pattern(256 << 10) // more than a terminal buffers
	filled := 0
	for how := wrote; how == wrote; {
		var n int
		n, how = writeNow(uintptr(w.own), nonBlocking, want[filled:])
		filled += n
		if how != wrote && how != wouldWait {
			t.Fatalf("a raw write to the terminal: %v", how)
		}
	}
	if filled == 0 || filled >= len(want) {
		t.Fatalf("the raw steps wrote %d of %d bytes before the terminal was full", filled, len(want))
	}
	done := make(chan error)
	go func() {
		_, err := w.Write(want[filled:])
		done <- err
	}()
	got := make([]byte, len(want))
	if _, err := io.ReadFull(master, got); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("the terminal's bytes differ from those written")
	}
	if after := flags(t, tty); after != before || after&unix.O_NONBLOCK != 0 {
		t.Fatalf("the shared description's flags went from %#x to %#x", before, after)
	}
	fd := w.own
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err != unix.EBADF {
		t.Fatalf("the description opened for the terminal is still open: %v", err)
	}
	if _, err := w.Write([]byte("after")); err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(master, got[:5]); err != nil || string(got[:5]) != "after" {
		t.Fatalf("after Close the terminal got %q, %v", got[:5], err)
	}
}

// A pseudo-terminal's master side given as the file (a program that
// hands baton the master it reads): opening it again by its path opens
// /dev/ptmx, a new terminal pair of the same device number and inode,
// whose slave nobody reads. Every byte must reach the master's own slave.
func TestAMasterIsNotReopenedAsANewTerminal(t *testing.T) {
	master, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer master.Close()
	defer tty.Close()
	tio, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	tio.Lflag &^= unix.ECHO | unix.ICANON
	if err := unix.IoctlSetTermios(int(tty.Fd()), unix.TCSETS, tio); err != nil {
		t.Fatal(err)
	}
	// The slave read through the poller, so a deadline can end the read.
	slave, err := os.OpenFile(tty.Name(), os.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer slave.Close()
	w := NewWriter(master)
	defer w.Close()
	if _, err := w.Write([]byte("to the slave")); err != nil {
		t.Fatal(err)
	}
	// A bound on a failure, not a wait for success: bytes written to a
	// new pair never come.
	if err := slave.SetReadDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, len("to the slave"))
	if _, err := io.ReadFull(slave, got); err != nil || string(got) != "to the slave" {
		t.Fatalf("the slave read %q, %v", got, err)
	}
}
