package sandbox

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// probeArg starts the stage that tries the namespaces once, so baton
// knows before any command whether commands can be isolated.
const probeArg = "__baton_sandbox_probe"

// probeTimeout bounds the probe; a kernel that stalls it isolates nothing.
const probeTimeout = 10 * time.Second

// isolation is the probe's verdict, taken once per process.
var isolation struct {
	once    sync.Once
	problem string // empty when commands get their own PID namespace
	// network is empty when they can also get a network namespace.
	network string
}

// Isolated reports whether commands run in their own PID and mount
// namespaces, with a /proc of their own: then no process outside the
// command's tree, baton and whatever started it included, is visible to
// it. It is false where the kernel refuses (user namespaces off, an LSM
// or seccomp filter) and in a program that never called Main.
func Isolated() bool {
	return IsolationProblem() == ""
}

// IsolationProblem says why commands cannot be isolated, or "" when they
// can.
func IsolationProblem() string {
	if !launcherReady.Load() {
		return "the launcher is not installed"
	}
	probeOnce()
	return isolation.problem
}

// NetworkIsolated reports whether commands without the network can get
// a network namespace of their own, where only an unconfigured loopback
// exists: no TCP, UDP or abstract socket leads out of it, whatever the
// kernel's Landlock ABI.
func NetworkIsolated() bool {
	return IsolationProblem() == "" && isolation.network == ""
}

// probeOnce tries the namespaces with a network namespace, and without
// one if that fails.
func probeOnce() {
	isolation.once.Do(func() {
		if isolation.network = probe(true); isolation.network != "" {
			isolation.problem = probe(false)
		}
	})
}

// probe starts this binary in fresh namespaces, the way the supervisor
// starts the restricting stage, and has it mount its own /proc.
func probe(ownNetwork bool) string {
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/proc/self/exe", probeArg)
	cmd.Args[0] = "baton-sandbox"
	cmd.SysProcAttr = namespaceAttr(ownNetwork)
	if t := runTag(); t != "" { // so that Sweep finds it too
		cmd.Env = append(os.Environ(), markerVar+"="+t+"probe")
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		if msg := strings.TrimSpace(string(out)); msg != "" {
			return msg
		}
		return fmt.Sprintf("new namespaces: %v", err)
	}
	return ""
}

// runProbe is the probe stage: PID 1 of its namespace, it does what the
// restricting stage does before Landlock, and checks the result.
func runProbe() int {
	nameSupervisor()
	if err := ownProc(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if self, err := os.Readlink("/proc/self"); err != nil || self != "1" {
		fmt.Fprintf(os.Stderr, "the new /proc does not show the new PID namespace (/proc/self is %q)\n", self)
		return 1
	}
	return 0
}

// namespaceAttr starts the supervisor as PID 1 of a new PID namespace
// with a mount namespace of its own, in its own session, and for a
// command without the network in a network namespace of its own.
// Without the privilege to make those namespaces, a user namespace comes
// first, mapping only our own user and group to themselves, so files
// keep their owners; the supervisor keeps CAP_SYS_ADMIN there across its
// exec to mount /proc, and drops it before starting the shell.
func namespaceAttr(ownNetwork bool) *syscall.SysProcAttr {
	attr := &syscall.SysProcAttr{Setsid: true, Cloneflags: syscall.CLONE_NEWPID | syscall.CLONE_NEWNS}
	if ownNetwork {
		attr.Cloneflags |= syscall.CLONE_NEWNET
	}
	if !privileged() {
		attr.Cloneflags |= syscall.CLONE_NEWUSER
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getuid(), HostID: os.Getuid(), Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getgid(), HostID: os.Getgid(), Size: 1}}
		attr.AmbientCaps = []uintptr{unix.CAP_SYS_ADMIN}
	}
	return attr
}

// privileged reports whether this process may make PID and mount
// namespaces itself (CAP_SYS_ADMIN): root needs no user namespace, and
// one would cost it its power over files other users own.
func privileged() bool {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return false
	}
	return data[0].Effective&(1<<unix.CAP_SYS_ADMIN) != 0
}

// ownProc gives this mount namespace a /proc of its PID namespace. The
// mounts are made private first, so nothing of this reaches baton's
// namespace (a privileged start keeps shared propagation otherwise).
func ownProc() error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make mounts private: %w", err)
	}
	if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mount /proc: %w", err)
	}
	return nil
}

// startRestricted starts the restricting stage, which applies Landlock
// and execs the shell. An isolated supervisor starts it from a thread
// that holds no ambient capability, so the shell gains none.
func startRestricted(line []byte, isolated bool) (int, error) {
	runtime.LockOSThread()
	if isolated {
		if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil {
			return 0, fmt.Errorf("drop ambient capabilities: %w", err)
		}
	}
	pid, err := syscall.ForkExec("/proc/self/exe", []string{"baton-sandbox", restrictArg, string(line)},
		&syscall.ProcAttr{Env: os.Environ(), Files: []uintptr{0, 1, 2}})
	if err != nil {
		return 0, fmt.Errorf("start sandboxed shell: %w", err)
	}
	return pid, nil
}

// killNamespace kills every process of the supervisor's namespace, again
// after each one reaped, until none is left: as its init, kill(-1)
// reaches them all, setsid or not, and none can leave the namespace.
func killNamespace(reaped <-chan reapedProc) {
	for {
		_ = syscall.Kill(-1, syscall.SIGKILL)
		if _, ok := <-reaped; !ok {
			return
		}
	}
}
