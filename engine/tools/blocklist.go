package tools

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
)

// maxNesting bounds how deep CheckCommand follows bash -c, eval and
// command substitutions.
const maxNesting = 4

// rule is one destructive pattern: reason names it in the refusal, match
// looks at a simple command's name (base name of argv[0]) and arguments.
type rule struct {
	reason string
	match  func(name string, args []string) bool
}

// rules are refused whatever the permission mode, --yolo included. They
// catch accidents of a model, not an adversary: approval is the real
// gate, and these are the commands nobody ever means to approve.
var rules = []rule{
	{"rm -rf of the filesystem root", func(name string, args []string) bool {
		return name == "rm" && hasFlag(args, "rR", "--recursive") && slices.ContainsFunc(operands(args), isRoot)
	}},
	{"rm -rf of the home directory", func(name string, args []string) bool {
		return name == "rm" && hasFlag(args, "rR", "--recursive") && slices.ContainsFunc(operands(args), isHome)
	}},
	{"recursive chmod or chown of the filesystem root", func(name string, args []string) bool {
		return (name == "chmod" || name == "chown" || name == "chgrp") &&
			hasFlag(args, "R", "--recursive") && slices.ContainsFunc(operands(args), isRoot)
	}},
	{"mkfs formats a filesystem", func(name string, _ []string) bool {
		return strings.HasPrefix(name, "mkfs") || name == "mke2fs"
	}},
	{"dd writing to a device", func(name string, args []string) bool {
		return name == "dd" && slices.ContainsFunc(args, func(a string) bool {
			dev, ok := strings.CutPrefix(a, "of=")
			return ok && isDevice(dev)
		})
	}},
	{"git push --force rewrites the remote's history", isForcePush},
	{"shutdown or reboot of the machine", func(name string, args []string) bool {
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
	}},
}

var (
	// funcDef finds shell function definitions, to spot a fork bomb: a
	// function that pipes itself into itself in the background.
	funcDef = regexp.MustCompile(`([A-Za-z_:][\w:.-]*)\(\)\{`)
	// deviceRedirect is output redirected onto a disk device.
	deviceRedirect = regexp.MustCompile(`>\s*/dev/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|dm-\d|md\d)`)
)

// CheckCommand refuses a command line that matches one of the safety
// rules, looking through sudo, env and similar prefixes, bash -c, eval
// and command substitutions. The error names the rule.
func CheckCommand(cmd string) error {
	return checkScript(cmd, 0)
}

func checkScript(cmd string, depth int) error {
	compact := strings.Join(strings.Fields(cmd), "")
	for _, m := range funcDef.FindAllStringSubmatch(compact, -1) {
		if strings.Contains(compact, m[1]+"|"+m[1]+"&") {
			return refused("a fork bomb")
		}
	}
	if deviceRedirect.MatchString(cmd) {
		return refused("writing to a disk device")
	}
	script := splitShell(cmd)
	nested := script.nested
	for _, argv := range script.commands {
		argv = stripPrefixes(argv)
		if len(argv) == 0 {
			continue
		}
		name := path.Base(argv[0])
		for _, r := range rules {
			if r.match(name, argv[1:]) {
				return refused(r.reason)
			}
		}
		if inner, ok := innerScript(name, argv[1:]); ok {
			nested = append(nested, inner)
		}
	}
	if depth >= maxNesting {
		return nil
	}
	for _, inner := range nested {
		if err := checkScript(inner, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// refused is the error of a command the safety rules stop.
func refused(reason string) error {
	return fmt.Errorf("refused by baton's safety rules: %s", reason)
}
