//go:build !linux

package sandbox

import (
	"os/exec"
)

// TerminalCommand runs script unsandboxed in a terminal baton does not
// own, without the environment variables named in unset.
func TerminalCommand(_ Policy, script string, unset []string) (string, []string, error) {
	sh := "/bin/sh"
	if p, err := exec.LookPath("bash"); err == nil {
		sh = p
	}
	args := []string{}
	for _, name := range unset {
		args = append(args, "-u", name)
	}
	return "/usr/bin/env", append(args, sh, "-c", script), nil
}
