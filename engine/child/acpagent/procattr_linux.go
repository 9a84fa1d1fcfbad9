package acpagent

import (
	"os"
	"syscall"
)

// procAttr starts the agent in a session and process group of its own
// (no controlling terminal: it never touches the person's) and kills it
// if baton dies.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
}

// killGroup kills the agent and every process of its group: an agent
// started through npx or a shell has children of its own.
func killGroup(p *os.Process) {
	_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
	_ = p.Kill()
}
