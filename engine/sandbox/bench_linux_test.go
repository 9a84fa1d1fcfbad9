package sandbox

import (
	"context"
	"io"
	"os"
	"os/exec"
	"testing"
)

// BenchmarkTrue is the cost of one command: `true` under the sandbox
// (supervisor, Landlock stage, shell), with the sandbox off (the same
// stages, no Landlock), and as a bare bash -c for reference.
func BenchmarkTrue(b *testing.B) {
	ws := b.TempDir()
	on := Settings{Env: map[string]string{"HOME": os.Getenv("HOME"), "TMPDIR": os.Getenv("TMPDIR")}}.Policy(ws)
	off := on
	off.Mode = Off
	for _, bc := range []struct {
		name string
		p    Policy
	}{{"sandboxed", on}, {"off", off}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := Run(context.Background(), bc.p, "true", ws, os.Environ(), io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("bare-shell", func(b *testing.B) {
		for b.Loop() {
			if err := exec.Command(shellPath(), "-c", "true").Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
