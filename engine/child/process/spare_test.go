package process

import (
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// quickExit spares the fake children of a race-enabled test binary the
// race detector's second of sleep at a clean exit.
func quickExit(t *testing.T) { t.Setenv("GORACE", "atexit_sleep_ms=0") }

// endedSpares has r report, on the channel it returns, the process id of
// every spare it ends unused, once the spare is reaped.
func endedSpares(r *Runner) <-chan int {
	ended := make(chan int, maxSpares)
	r.spares.ended = func(sp *spare) {
		pid := 0
		if sp.err == nil {
			pid = sp.proc.Pid()
		}
		ended <- pid
	}
	return ended
}

// reaped fails t unless the process pid is gone: neither running nor a
// zombie left unreaped (signal 0 reaches both).
func reaped(t *testing.T, pid int) {
	t.Helper()
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("the spare's process %d is still there (kill 0: %v)", pid, err)
	}
}

// A spare, once warmed, is the process of the next child and of that
// child only: the child after it starts cold, and the pool is empty.
func TestASpareTakesOneChildAndOnlyOne(t *testing.T) {
	quickExit(t)
	r := fakeRunner(t, "whoami")
	defer r.Cool()
	ended := endedSpares(r)
	r.Warm(t.TempDir(), 1)
	first, _ := runChild(t, r, "explore-1")
	if first.Status != event.StatusCompleted || !strings.HasPrefix(first.Text, sparePrefix) {
		t.Fatalf("the first child ran in %q (%s), not in the spare", first.Text, first.Status)
	}
	second, _ := runChild(t, r, "explore-2")
	if second.Status != event.StatusCompleted || second.Text != "explore-2" {
		t.Fatalf("the second child ran in %q (%s), not in a process of its own", second.Text, second.Status)
	}
	r.spares.mu.Lock()
	left := len(r.spares.waiting)
	r.spares.mu.Unlock()
	if left != 0 {
		t.Fatalf("%d spares wait after the one warmed was taken", left)
	}
	select {
	case pid := <-ended:
		t.Fatalf("the spare %d was ended rather than used", pid)
	default:
	}
}

// Spares nobody takes are ended and reaped: when the session ends
// (Cool), and when they have waited their time. The spares are real
// child processes (this test binary as baton __child spare-…), which
// leave on their own once their input ends.
func TestAnUnusedSpareIsEndedAndReaped(t *testing.T) {
	t.Run("when the session ends", func(t *testing.T) {
		r := New(Options{})
		ended := endedSpares(r)
		r.Warm(t.TempDir(), maxSpares+2)
		r.Warm(t.TempDir(), 1) // enough wait: none more
		r.Cool()
		r.Warm(t.TempDir(), 1) // after the end: none
		for range maxSpares {
			reaped(t, <-ended)
		}
		select {
		case pid := <-ended:
			t.Fatalf("a spare %d beyond the %d allowed was started", pid, maxSpares)
		default:
		}
	})
	t.Run("when it waited its time", func(t *testing.T) {
		r := New(Options{})
		defer r.Cool()
		ended := endedSpares(r)
		r.spares.idle = time.Millisecond
		r.Warm(t.TempDir(), 1)
		reaped(t, <-ended)
		r.spares.mu.Lock()
		left := len(r.spares.waiting)
		r.spares.mu.Unlock()
		if left != 0 {
			t.Fatalf("%d spares wait after the idle one was ended", left)
		}
	})
}

// A spare that died before a child came is ended and reaped, and the
// child starts cold in a process of its own.
func TestACrashedSpareFallsBackToAColdStart(t *testing.T) {
	quickExit(t)
	r := fakeRunner(t, "crash-spare")
	defer r.Cool()
	ended := endedSpares(r)
	r.Warm(t.TempDir(), 1)
	r.spares.mu.Lock()
	sp := r.spares.waiting[0]
	r.spares.mu.Unlock()
	<-sp.launched
	if sp.err != nil {
		t.Fatal(sp.err)
	}
	// Waits for the spare to die, leaving it unreaped, as a spare that
	// crashed while it waited is.
	var info unix.Siginfo
	if err := unix.Waitid(unix.P_PID, sp.proc.Pid(), &info, unix.WEXITED|unix.WNOWAIT, nil); err != nil {
		t.Fatal(err)
	}
	end, _ := runChild(t, r, "explore-1")
	if end.Status != event.StatusCompleted || end.Text != "explore-1" {
		t.Fatalf("the child ran in %q (%s), not in a process of its own", end.Text, end.Status)
	}
	reaped(t, <-ended)
}

// A spare given a child takes the child's id as its last argument, where
// a process list and killFound look for it, with room to spare.
func TestASpareTakesItsChildsName(t *testing.T) {
	name := spareName()
	if len(name) != spareNameLen || !strings.HasPrefix(name, sparePrefix) {
		t.Fatalf("spare name %q", name)
	}
	for id, want := range map[string]string{"explore-12": "explore-12", strings.Repeat("x", spareNameLen+1): name} {
		if got := processName(id, name); got != want {
			t.Errorf("processName(%q) = %q, want %q", id, got, want)
		}
	}
	saved := os.Args
	defer func() { os.Args = saved }()
	arg := []byte(name)
	os.Args = []string{"baton", Subcommand, string(arg)}
	takeName("explore-12")
	if got := strings.TrimRight(os.Args[2], "\x00"); got != "explore-12" {
		t.Fatalf("the last argument is %q after takeName", got)
	}
}

// waiting tells a pipe with input not yet read from one without: a spare
// whose spec came while it started goes straight to it.
func TestWaitingSeesInputNotYetRead(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if waiting(r) {
		t.Fatal("an empty pipe holds input")
	}
	if _, err := w.Write([]byte("{\"spec\":{}}\n")); err != nil {
		t.Fatal(err)
	}
	if !waiting(r) {
		t.Fatal("a pipe with a line in it holds no input")
	}
}

// A spare warms up step by step while no spec has come, and stops at the
// first step after it has: its child goes on at once.
func TestWarmStopsWhenTheSpecComes(t *testing.T) {
	asked := 0
	warm(func() bool { asked++; return false })
	if asked < 2 {
		t.Fatalf("a spare with no spec asked %d times whether it came", asked)
	}
	all := asked
	asked = 0
	warm(func() bool { asked++; return asked == 2 })
	if asked != 2 || all <= 2 {
		t.Fatalf("a spare whose spec came after its first step asked %d times (of %d steps)", asked, all)
	}
}

// A spare lets go of its start-up's code only when its spec has not come
// for a while: quietFor is false as soon as there is input or baton's end
// is closed, true only once the pipe stayed empty and open.
func TestQuietForSaysWhetherTheSpecIsComing(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if !quietFor(r, 5*time.Millisecond) {
		t.Error("an empty pipe open at both ends was not quiet")
	}
	if _, err := w.WriteString("{\"spec\":{}}\n"); err != nil {
		t.Fatal(err)
	}
	if quietFor(r, time.Minute) {
		t.Error("a pipe holding a spec was quiet")
	}
	r2, w2, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	w2.Close()
	if quietFor(r2, time.Minute) {
		t.Error("a pipe whose writer closed was quiet")
	}
	w.Close()
}

// A spare lets go of its start-up's code only once it has waited
// spareSettle for its spec: not when the spec is there already, as after a
// delegation written at once, nor when baton closed its input.
func TestASpareLetsGoOfItsCodeOnlyWhenLeftWaiting(t *testing.T) {
	for _, c := range []struct {
		name  string
		input func(w *os.File)
		drops int
	}{
		{"left waiting", func(*os.File) {}, 1},
		{"its spec there already", func(w *os.File) { _, _ = w.WriteString("{\"spec\":{}}\n") }, 0},
		{"its input closed", func(w *os.File) { w.Close() }, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			defer w.Close()
			c.input(w)
			drops := 0
			readySpare(r, func() { drops++ })
			if drops != c.drops {
				t.Fatalf("the spare let go of its code %d times, want %d", drops, c.drops)
			}
		})
	}
}
