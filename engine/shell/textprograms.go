package shell

import (
	"path"
	"slices"
	"strings"
)

// awk and sed run commands from their own programs: awk's system(),
// its pipes to and from commands (print | "cmd", "cmd" | getline), and
// GNU sed's e command and the e flag of s. The command is a string the
// program builds, so such a program is a script only known when it
// runs. A program read from a file (-f) is the file's, as a shell's
// script file is.

// awks are the awk programs.
var awks = []string{"awk", "gawk", "mawk", "nawk"}

// textProgramScripts is an unknown script when argv is an awk or sed
// whose program runs commands, else nothing.
func textProgramScripts(argv []Word) []Word {
	if len(argv) == 0 {
		return nil
	}
	var programs []Word
	var runs func(string) bool
	switch name := path.Base(argv[0].Text); {
	case name == "sed" || name == "gsed":
		programs, runs = programTexts(argv[1:], sedOptions), sedRuns
	case slices.Contains(awks, name):
		programs, runs = programTexts(argv[1:], awkOptions), awkRuns
	default:
		return nil
	}
	for _, p := range programs {
		if p.Opaque || runs(p.Text) {
			return []Word{{Opaque: true}}
		}
	}
	return nil
}

// programOptions say how a text program's command line names its
// program: an option's value, a file, or its first operand.
type programOptions struct {
	longs       []string // the long options that matter; each takes a value
	programLong string   // the long option whose value is a program
	fileLongs   []string // the long options naming a program file
	valued      string   // the short options that take a value
	program     byte     // the short option whose value is a program
	files       string   // the short options naming a program file
	// bundles: short flags bundle (-ne, -nf); endsBundle, when set, ends
	// a bundle with what follows it (sed's -i.bak). Otherwise only a
	// word's first letter is an option (awk's -F:).
	bundles    bool
	endsBundle byte
}

// awkOptions: -e/--source values, else the first operand unless -f names
// a file.
var awkOptions = programOptions{
	longs:       []string{"--source", "--file", "--exec", "--field-separator", "--assign", "--include", "--load"},
	programLong: "--source", fileLongs: []string{"--file", "--exec"},
	valued: "efEFvil", program: 'e', files: "fE",
}

// sedOptions: -e/--expression values, else the first operand unless -f
// names a file; e, f and l take the rest of the word or the next.
var sedOptions = programOptions{
	longs:       []string{"--expression", "--file", "--line-length"},
	programLong: "--expression", fileLongs: []string{"--file"},
	valued: "efl", program: 'e', files: "f",
	bundles: true, endsBundle: 'i',
}

// programTexts are the program texts args name under o.
func programTexts(args []Word, o programOptions) []Word {
	var out []Word
	fromFile := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.Opaque {
			return append(out, a)
		}
		t := a.Text
		name, value, inline := strings.Cut(t, "=")
		switch {
		case t == "--":
			if i+1 < len(args) && len(out) == 0 && !fromFile {
				out = append(out, args[i+1])
			}
			return out
		case strings.HasPrefix(t, "--"):
			long, _ := longOption(name, o.longs)
			if long == "" {
				continue
			}
			if !inline && i+1 < len(args) {
				i++
				value = args[i].Text
				if args[i].Opaque {
					return append(out, args[i])
				}
			}
			switch {
			case long == o.programLong:
				out = append(out, Word{Text: value})
			case slices.Contains(o.fileLongs, long):
				fromFile = true
			}
		case len(t) > 1 && t[0] == '-':
			letter, rest, ok := o.valuedShort(t)
			if !ok {
				continue
			}
			if rest == "" && i+1 < len(args) {
				i++
				rest = args[i].Text
				if args[i].Opaque {
					return append(out, args[i])
				}
			}
			switch {
			case letter == o.program:
				out = append(out, Word{Text: rest})
			case strings.IndexByte(o.files, letter) >= 0:
				fromFile = true
			}
		default:
			if len(out) == 0 && !fromFile {
				out = append(out, a)
			}
			return out
		}
	}
	return out
}

// valuedShort is the short option of the flag word t that takes a value,
// with the rest of the word after it.
func (o programOptions) valuedShort(t string) (letter byte, rest string, ok bool) {
	end := 2
	if o.bundles {
		end = len(t)
	}
	for j := 1; j < end; j++ {
		c := t[j]
		if o.endsBundle != 0 && c == o.endsBundle {
			return 0, "", false
		}
		if strings.IndexByte(o.valued, c) >= 0 {
			return c, t[j+1:], true
		}
	}
	return 0, "", false
}

// awkRuns reports whether an awk program may run a command: it calls
// system or pipes to or from one (a lone |, or gawk's |&).
func awkRuns(program string) bool {
	if strings.Contains(program, "system") || strings.Contains(program, "|&") {
		return true
	}
	for i := 0; i < len(program); i++ {
		if program[i] != '|' {
			continue
		}
		if i+1 < len(program) && program[i+1] == '|' {
			i++ // ||, a logical or
			continue
		}
		return true
	}
	return false
}

// sedRuns reports whether a sed script may run a command: an e command,
// or an s command with the e flag. It reads the script's commands past
// their addresses and arguments; a command it does not know is taken to
// run one.
func sedRuns(script string) bool {
	r := sedReader{s: script}
	for {
		r.skip(" \t\n;")
		if r.done() {
			return false
		}
		r.address()
		r.skip(" \t")
		if r.peek() == ',' {
			r.i++
			r.skip(" \t")
			r.address()
		}
		r.skip(" \t!")
		if r.done() {
			return false
		}
		c := r.s[r.i]
		r.i++
		switch {
		case c == 'e':
			return true
		case c == 's':
			delim := r.next()
			r.field(delim)
			r.field(delim)
			for !r.done() && !strings.ContainsRune(";\n}", rune(r.peek())) {
				flag := r.next()
				switch flag {
				case 'e':
					return true
				case 'w':
					r.toLineEnd() // the file's name
				}
			}
		case c == 'y':
			delim := r.next()
			r.field(delim)
			r.field(delim)
		case strings.ContainsRune("aicrRwW", rune(c)):
			r.toLineEnd() // text or a file's name
		case strings.ContainsRune("btT:", rune(c)):
			for !r.done() && r.peek() != ';' && r.peek() != '\n' {
				r.i++
			}
		case c == '#':
			r.toLineEnd()
		case strings.ContainsRune("{}=dDgGhHlLnNpPqQxzF", rune(c)):
			r.skip("0123456789") // q, Q, l and L take a number
		default:
			return true
		}
	}
}

// sedReader reads a sed script.
type sedReader struct {
	s string
	i int
}

func (r *sedReader) done() bool { return r.i >= len(r.s) }

// peek is the next byte, or 0 at the end.
func (r *sedReader) peek() byte {
	if r.done() {
		return 0
	}
	return r.s[r.i]
}

// next takes the next byte, or 0 at the end.
func (r *sedReader) next() byte {
	c := r.peek()
	r.i++
	return c
}

// skip passes the bytes in set.
func (r *sedReader) skip(set string) {
	for !r.done() && strings.IndexByte(set, r.s[r.i]) >= 0 {
		r.i++
	}
}

// toLineEnd passes the rest of the line.
func (r *sedReader) toLineEnd() {
	for !r.done() && r.s[r.i] != '\n' {
		r.i++
	}
}

// field passes a field ended by delim, backslash escapes included.
func (r *sedReader) field(delim byte) {
	for !r.done() {
		c := r.next()
		switch c {
		case '\\':
			r.i++
		case delim:
			return
		}
	}
}

// address passes one address: a line number, $, a /regex/ or \cregexc,
// and GNU's first~step or +N after it.
func (r *sedReader) address() {
	switch c := r.peek(); {
	case c == '/':
		r.i++
		r.field('/')
		r.skip("IM")
	case c == '\\':
		r.i++
		r.field(r.next())
		r.skip("IM")
	case c == '$':
		r.i++
	default:
		r.skip("0123456789")
	}
	if c := r.peek(); c == '~' || c == '+' {
		r.i++
		r.skip("0123456789")
	}
}
