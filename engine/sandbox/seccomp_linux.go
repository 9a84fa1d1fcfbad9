package sandbox

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Below Landlock ABI 10 the kernel's Landlock cannot stop UDP, and below
// ABI 9 not Unix sockets. Where commands get no namespaces of their own
// to close those doors (a network namespace, masks over the sockets), a
// seccomp filter refuses the sockets themselves: socket(2) of a family
// the command may not use fails with EACCES. It also refuses io_uring,
// whose requests would open sockets behind the filter's back.

// socketFilter says what the filter refuses; the zero value installs
// nothing.
type socketFilter struct {
	// Unix refuses Unix sockets, but for connected stream pairs
	// (socketpair), which reach nothing outside the command.
	Unix bool `json:"unix"`
	// Network refuses every other family: TCP, UDP, raw, netlink.
	Network bool `json:"network"`
}

// archSyscalls are the numbers the filter checks for one architecture;
// a negative number is a call the architecture does not have.
type archSyscalls struct {
	arch                                         uint32
	socket, socketpair, socketcall, ioUringSetup int
}

// filterArches are the native architecture's calls, then the 32-bit
// compatibility layer's, where a program can make the same calls under
// other numbers; nil where the filter is not written for this machine.
func filterArches() []archSyscalls {
	switch runtime.GOARCH {
	case "amd64":
		return []archSyscalls{
			{unix.AUDIT_ARCH_X86_64, 41, 53, -1, 425},
			{unix.AUDIT_ARCH_I386, 359, 360, 102, 425},
		}
	case "arm64":
		return []archSyscalls{
			{unix.AUDIT_ARCH_AARCH64, 198, 199, -1, 425},
			{unix.AUDIT_ARCH_ARM, 281, 288, -1, 425},
		}
	}
	return nil
}

// filterAvailable reports whether this machine gets the filter.
func filterAvailable() bool { return filterArches() != nil }

// Classic BPF opcodes and seccomp_data offsets.
const (
	bpfLoad   = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
	bpfJumpEq = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
	bpfJumpGE = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
	bpfAnd    = unix.BPF_ALU | unix.BPF_AND | unix.BPF_K
	bpfReturn = unix.BPF_RET | unix.BPF_K

	offNr   = 0
	offArch = 4
	offArg0 = 16 // the low half of the first argument on little-endian machines
	offArg1 = 24

	x32Bit    = 0x40000000
	typeFlags = unix.SOCK_NONBLOCK | unix.SOCK_CLOEXEC
)

// program assembles classic BPF with named jump targets.
type program struct {
	ins    []unix.SockFilter
	labels map[string]int
	jumps  []jump
}

type jump struct {
	at     int
	jt, jf string // "" falls through
}

func (p *program) label(name string) { p.labels[name] = len(p.ins) }

func (p *program) op(code uint16, k uint32) { p.ins = append(p.ins, unix.SockFilter{Code: code, K: k}) }

// when jumps to jt if the test holds, else to jf.
func (p *program) when(code uint16, k uint32, jt, jf string) {
	p.jumps = append(p.jumps, jump{at: len(p.ins), jt: jt, jf: jf})
	p.op(code, k)
}

func (p *program) assemble() ([]unix.SockFilter, error) {
	for _, j := range p.jumps {
		for _, t := range []struct {
			name string
			off  *uint8
		}{{j.jt, &p.ins[j.at].Jt}, {j.jf, &p.ins[j.at].Jf}} {
			if t.name == "" {
				continue
			}
			to, ok := p.labels[t.name]
			d := to - j.at - 1
			if !ok || d < 0 || d > 255 {
				return nil, fmt.Errorf("seccomp: bad jump to %q", t.name)
			}
			*t.off = uint8(d)
		}
	}
	return p.ins, nil
}

// build writes the filter for f.
func (f socketFilter) build(arches []archSyscalls) ([]unix.SockFilter, error) {
	allow := uint32(unix.SECCOMP_RET_ALLOW)
	deny := uint32(unix.SECCOMP_RET_ERRNO) | uint32(unix.EACCES)
	p := &program{labels: map[string]int{}}
	for i, a := range arches {
		next, socket, pair := fmt.Sprintf("arch%d", i+1), fmt.Sprintf("socket%d", i), fmt.Sprintf("pair%d", i)
		if i == len(arches)-1 {
			next = "nosys" // an architecture the filter does not know
		}
		p.label(fmt.Sprintf("arch%d", i))
		p.op(bpfLoad, offArch)
		p.when(bpfJumpEq, a.arch, "", next)
		p.op(bpfLoad, offNr)
		if i == 0 && runtime.GOARCH == "amd64" {
			p.when(bpfJumpGE, x32Bit, "nosys", "") // the x32 numbering
		}
		p.when(bpfJumpEq, uint32(a.ioUringSetup), "nosys", "")
		if a.socketcall >= 0 {
			p.when(bpfJumpEq, uint32(a.socketcall), "deny", "")
		}
		p.when(bpfJumpEq, uint32(a.socket), socket, "")
		if !f.Unix {
			p.op(bpfReturn, allow)
		} else {
			p.when(bpfJumpEq, uint32(a.socketpair), pair, "allow")
		}
		p.label(socket)
		switch {
		case f.Unix && f.Network:
			p.op(bpfReturn, deny) // every family
		case f.Unix:
			p.op(bpfLoad, offArg0)
			p.when(bpfJumpEq, unix.AF_UNIX, "deny", "allow")
		default:
			p.op(bpfLoad, offArg0)
			p.when(bpfJumpEq, unix.AF_UNIX, "allow", "deny")
		}
		if f.Unix {
			p.label(pair)
			p.op(bpfLoad, offArg1)
			p.op(bpfAnd, ^uint32(typeFlags))
			p.when(bpfJumpEq, unix.SOCK_STREAM, "allow", "deny")
		}
	}
	p.label("allow")
	p.op(bpfReturn, allow)
	p.label("deny")
	p.op(bpfReturn, deny)
	p.label("nosys")
	p.op(bpfReturn, unix.SECCOMP_RET_ERRNO|uint32(unix.ENOSYS))
	return p.assemble()
}

// install puts the filter on the calling thread, which must already have
// no_new_privs; it passes to everything the thread execs.
func (f socketFilter) install() error {
	if !f.Unix && !f.Network {
		return nil
	}
	arches := filterArches()
	if arches == nil {
		return fmt.Errorf("seccomp: no socket filter for %s", runtime.GOARCH)
	}
	ins, err := f.build(arches)
	if err != nil {
		return err
	}
	prog := unix.SockFprog{Len: uint16(len(ins)), Filter: &ins[0]}
	if _, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, uintptr(unsafe.Pointer(&prog))); errno != 0 {
		return fmt.Errorf("seccomp: install the socket filter: %w", errno)
	}
	return nil
}
