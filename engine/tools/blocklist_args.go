package tools

import (
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/seed-e4e525a6/baton/engine/shell"
)

// harmlessDevices are device files that dd may write to.
var harmlessDevices = []string{"/dev/null", "/dev/zero", "/dev/stdout", "/dev/stderr", "/dev/tty"}

// hasFlag reports whether args (up to "--") hold one of the long flags, or
// a short-flag cluster such as -rf or -fR with one of the short letters.
func hasFlag(args []string, short string, long ...string) bool {
	for _, a := range args {
		switch {
		case a == "--":
			return false
		case slices.Contains(long, a):
			return true
		case len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], short):
			return true
		}
	}
	return false
}

// operands are the arguments that are not options; after "--" all are.
func operands(args []string) []string {
	var out []string
	for i, a := range args {
		if a == "--" {
			return append(out, args[i+1:]...)
		}
		if !strings.HasPrefix(a, "-") {
			out = append(out, a)
		}
	}
	return out
}

// isRoot reports whether an operand names the filesystem root, or a
// glob of its top-level entries (/*, /.*, /b*): however spelled (//,
// /./, /tmp/.., trailing slashes).
func isRoot(op string) bool {
	if !strings.HasPrefix(op, "/") {
		return false
	}
	return rootOrGlob(path.Clean(op))
}

// rootOrGlob reports whether a cleaned absolute path is "/" or one glob
// segment under it.
func rootOrGlob(p string) bool {
	return p == "/" || (strings.Count(p, "/") == 1 && strings.ContainsAny(p, "*?["))
}

// isHome reports whether an operand names the home directory or all of it.
func isHome(op string) bool {
	homes := []string{"~", "$HOME", "${HOME}"}
	if dir, err := os.UserHomeDir(); err == nil && dir != "/" {
		homes = append(homes, path.Clean(dir))
	}
	for _, home := range homes {
		if op == home || strings.HasPrefix(op, home+"/") {
			return rootOrGlob(path.Clean("/" + op[len(home):]))
		}
	}
	return false
}

// isDevice reports whether a dd output file is a device worth refusing.
func isDevice(file string) bool {
	if !strings.HasPrefix(file, "/") {
		return false
	}
	p := path.Clean(file)
	return strings.HasPrefix(p, "/dev/") && !slices.Contains(harmlessDevices, p)
}

// isDisk reports whether a redirection target is a disk device.
func isDisk(file string) bool {
	return strings.HasPrefix(file, "/") && diskDevice().MatchString(path.Clean(file))
}

// diskDevice matches the device files of disks and their partitions.
func diskDevice() *regexp.Regexp {
	diskDeviceOnce.Do(func() { diskDeviceValue = buildDiskDevice() })
	return diskDeviceValue
}

// diskDeviceOnce and diskDeviceValue hold the table, built on first use
// (a zero sync.Once costs nothing at start; sync.OnceValue is init code).
var (
	diskDeviceOnce  sync.Once
	diskDeviceValue *regexp.Regexp
)

// buildDiskDevice builds the table.
func buildDiskDevice() *regexp.Regexp {
	return regexp.MustCompile(`^/dev/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|dm-\d|md\d|loop\d|mapper/)`)
}

// isForcePush matches git push with --force, -f (alone or in a cluster),
// --force-with-lease or a +refspec, after git's own global options.
func isForcePush(name string, args []string) bool {
	if name != "git" {
		return false
	}
	words := []shell.Word{{Text: name}}
	for _, a := range args {
		words = append(words, shell.Word{Text: a})
	}
	i, _ := shell.Subcommand(words)
	if i >= len(words) || words[i].Text != "push" {
		return false
	}
	return slices.ContainsFunc(args[i:], func(a string) bool {
		return a == "--force" || strings.HasPrefix(a, "--force-with-lease") ||
			(len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'f')) ||
			(len(a) > 1 && a[0] == '+')
	})
}

// isShutdown matches commands that power the machine off or restart it.
func isShutdown(name string, args []string) bool {
	switch name {
	case "shutdown", "reboot", "halt", "poweroff":
		return true
	case "systemctl":
		return slices.ContainsFunc(args, func(a string) bool {
			return a == "poweroff" || a == "reboot" || a == "halt" || a == "kexec"
		})
	case "init", "telinit":
		return slices.Contains(args, "0") || slices.Contains(args, "6")
	}
	return false
}
