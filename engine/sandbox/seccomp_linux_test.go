package sandbox

import (
	"encoding/binary"
	"fmt"
	"runtime"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// seccompCall is one system call as the filter sees it (seccomp_data).
type seccompCall struct {
	arch       uint32
	nr         int
	arg0, arg1 uint64
}

// data lays the call out as the kernel does, little-endian.
func (c seccompCall) data() []byte {
	b := make([]byte, 64)
	binary.LittleEndian.PutUint32(b[offNr:], uint32(c.nr))
	binary.LittleEndian.PutUint32(b[offArch:], c.arch)
	binary.LittleEndian.PutUint64(b[offArg0:], c.arg0)
	binary.LittleEndian.PutUint64(b[offArg1:], c.arg1)
	return b
}

// runFilter runs a classic BPF program on a call, as the kernel would,
// for the instructions the filter uses, and returns its verdict. An
// instruction it does not know, a jump off the end or a read outside
// seccomp_data fails the test: the kernel would refuse the program.
func runFilter(t *testing.T, prog []unix.SockFilter, c seccompCall) uint32 {
	t.Helper()
	data := c.data()
	var acc uint32
	for pc := 0; pc < len(prog); pc++ {
		in := prog[pc]
		switch in.Code {
		case bpfLoad:
			if int(in.K)+4 > len(data) {
				t.Fatalf("instruction %d reads past seccomp_data", pc)
			}
			acc = binary.LittleEndian.Uint32(data[in.K:])
		case bpfAnd:
			acc &= in.K
		case bpfJumpEq, bpfJumpGE:
			holds := acc == in.K
			if in.Code == bpfJumpGE {
				holds = acc >= in.K
			}
			if holds {
				pc += int(in.Jt)
			} else {
				pc += int(in.Jf)
			}
		case bpfReturn:
			return in.K
		default:
			t.Fatalf("instruction %d: opcode %#x", pc, in.Code)
		}
	}
	t.Fatal("the filter ran off its end")
	return 0
}

// verdict names a filter's answer as the command sees it.
func verdict(ret uint32) string {
	switch {
	case ret == unix.SECCOMP_RET_ALLOW:
		return "allowed"
	case ret == unix.SECCOMP_RET_ERRNO|uint32(unix.EACCES):
		return "EACCES"
	case ret == unix.SECCOMP_RET_ERRNO|uint32(unix.ENOSYS):
		return "ENOSYS"
	}
	return fmt.Sprintf("%#x", ret)
}

// TestSocketFilter runs the filter each policy installs on the calls a
// command could make to reach a socket: the families it may not use are
// refused (EACCES), in the native numbering and the 32-bit one,
// socketcall and io_uring (which would open sockets behind it) are
// refused, an x32 or unknown architecture's calls find nothing (ENOSYS),
// and everything else goes through.
func TestSocketFilter(t *testing.T) {
	arches := filterArches()
	if arches == nil {
		t.Skipf("no socket filter is written for %s", runtime.GOARCH)
	}
	native, compat := arches[0], arches[1]
	stream := uint64(unix.SOCK_STREAM | unix.SOCK_CLOEXEC | unix.SOCK_NONBLOCK)
	calls := map[string]seccompCall{
		"read":                   {arch: native.arch, nr: 0},
		"socket(AF_INET)":        {arch: native.arch, nr: native.socket, arg0: unix.AF_INET},
		"socket(AF_INET6)":       {arch: native.arch, nr: native.socket, arg0: unix.AF_INET6},
		"socket(AF_NETLINK)":     {arch: native.arch, nr: native.socket, arg0: unix.AF_NETLINK},
		"socket(AF_UNIX)":        {arch: native.arch, nr: native.socket, arg0: unix.AF_UNIX},
		"socketpair(stream)":     {arch: native.arch, nr: native.socketpair, arg0: unix.AF_UNIX, arg1: stream},
		"socketpair(datagram)":   {arch: native.arch, nr: native.socketpair, arg0: unix.AF_UNIX, arg1: unix.SOCK_DGRAM},
		"io_uring_setup":         {arch: native.arch, nr: native.ioUringSetup},
		"32-bit socket(AF_INET)": {arch: compat.arch, nr: compat.socket, arg0: unix.AF_INET},
		"32-bit socket(AF_UNIX)": {arch: compat.arch, nr: compat.socket, arg0: unix.AF_UNIX},
		"32-bit io_uring_setup":  {arch: compat.arch, nr: compat.ioUringSetup},
		"another architecture":   {arch: unix.AUDIT_ARCH_PPC64LE, nr: 0},
	}
	if runtime.GOARCH == "amd64" {
		calls["x32 socket(AF_INET)"] = seccompCall{arch: native.arch, nr: x32Bit | native.socket, arg0: unix.AF_INET}
		calls["32-bit socketcall"] = seccompCall{arch: compat.arch, nr: compat.socketcall}
	}
	want := map[socketFilter]map[string]string{
		{Network: true}: {
			"read": "allowed", "socket(AF_INET)": "EACCES", "socket(AF_INET6)": "EACCES", "socket(AF_NETLINK)": "EACCES",
			"socket(AF_UNIX)": "allowed", "socketpair(stream)": "allowed", "socketpair(datagram)": "allowed",
			"io_uring_setup": "ENOSYS", "32-bit socket(AF_INET)": "EACCES", "32-bit socket(AF_UNIX)": "allowed",
			"32-bit io_uring_setup": "ENOSYS", "another architecture": "ENOSYS", "x32 socket(AF_INET)": "ENOSYS", "32-bit socketcall": "EACCES",
		},
		{Unix: true}: {
			"read": "allowed", "socket(AF_INET)": "allowed", "socket(AF_INET6)": "allowed", "socket(AF_NETLINK)": "allowed",
			"socket(AF_UNIX)": "EACCES", "socketpair(stream)": "allowed", "socketpair(datagram)": "EACCES",
			"io_uring_setup": "ENOSYS", "32-bit socket(AF_INET)": "allowed", "32-bit socket(AF_UNIX)": "EACCES",
			"32-bit io_uring_setup": "ENOSYS", "another architecture": "ENOSYS", "x32 socket(AF_INET)": "ENOSYS", "32-bit socketcall": "EACCES",
		},
		{Unix: true, Network: true}: {
			"read": "allowed", "socket(AF_INET)": "EACCES", "socket(AF_INET6)": "EACCES", "socket(AF_NETLINK)": "EACCES",
			"socket(AF_UNIX)": "EACCES", "socketpair(stream)": "allowed", "socketpair(datagram)": "EACCES",
			"io_uring_setup": "ENOSYS", "32-bit socket(AF_INET)": "EACCES", "32-bit socket(AF_UNIX)": "EACCES",
			"32-bit io_uring_setup": "ENOSYS", "another architecture": "ENOSYS", "x32 socket(AF_INET)": "ENOSYS", "32-bit socketcall": "EACCES",
		},
	}
	for f, answers := range want {
		prog, err := f.build(arches)
		if err != nil {
			t.Fatalf("%+v: %v", f, err)
		}
		if len(prog) > 255 {
			t.Fatalf("%+v: %d instructions", f, len(prog))
		}
		for name, c := range calls {
			if got := verdict(runFilter(t, prog, c)); got != answers[name] {
				t.Errorf("%+v: %s is %s, want %s", f, name, got, answers[name])
			}
		}
	}
	// No filter for a policy that refuses nothing: nothing is installed.
	if err := (socketFilter{}).install(); err != nil {
		t.Fatalf("the empty filter: %v", err)
	}
}

// A jump to a label that does not exist, or backwards, is refused
// rather than assembled into a program that would jump elsewhere.
func TestFilterAssemblyRefusesBadJumps(t *testing.T) {
	p := &program{labels: map[string]int{}}
	p.when(bpfJumpEq, 1, "nowhere", "")
	if _, err := p.assemble(); err == nil {
		t.Fatal("a jump to a missing label was assembled")
	}
	p = &program{labels: map[string]int{}}
	p.label("back")
	p.op(bpfLoad, offNr)
	p.when(bpfJumpEq, 1, "", "back")
	if _, err := p.assemble(); err == nil {
		t.Fatal("a jump backwards was assembled")
	}
}

// The exit of a command reads as exec's does, for the model and the
// person: its status, or the signal that ended it.
func TestExitError(t *testing.T) {
	exited := &ExitError{Status: syscall.WaitStatus(3 << 8)}
	if exited.Error() != "exit status 3" || exited.ExitCode() != 3 {
		t.Errorf("exit 3: %q, %d", exited.Error(), exited.ExitCode())
	}
	killed := &ExitError{Status: syscall.WaitStatus(unix.SIGKILL)}
	if killed.Error() != "signal: killed" || killed.ExitCode() != -1 {
		t.Errorf("killed: %q, %d", killed.Error(), killed.ExitCode())
	}
}
