// Package rawio moves a stream's bytes between baton and the sockets and
// files it reads and writes without waking the Go runtime's monitor
// thread. A system call made the usual way (syscall.Syscall) tells the
// runtime it may block: when the monitor (sysmon) sleeps because every P
// is idle, the call wakes it, and once awake it polls every 20 µs until
// the process is idle again, each poll a sleep and a wake-up of its own.
// A streaming baton works in short bursts once a gathering window (a
// socket read, a write of the text or frame it made), so every burst
// woke the monitor: more wake-ups and system calls than the burst's own
// work. A raw system call (syscall.RawSyscall) does not tell the runtime,
// so it is only safe for a call that never blocks: here a read of a
// non-blocking socket whose waits are the network poller's (Conn), and a
// write the kernel is told must not wait, whose rest goes the usual way
// when it would (Writer).
package rawio
