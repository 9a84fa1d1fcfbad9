// Command perf measures baton as whole processes, the way a person meets
// it: it builds the binary as make build does, starts a scripted
// OpenAI-compatible endpoint on loopback that answers as a real provider
// does, gives every case a person's home (a config naming the endpoint, a
// state folder that fills with sessions, a project that is a git
// repository) and runs each case several times, headless cases on pipes
// and TUI cases in a pseudo-terminal. Each run goes through a small
// launch helper that measures the whole process tree (see
// cmd/perf/launch). It prints the medians of wall time, CPU time, peak
// RSS and time to first stdout byte, and each case's own figure against
// its target. `make perf` runs it.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

func main() {
	runs := flag.Int("runs", 5, "measured runs per case (the median is printed)")
	only := flag.String("cases", "", "comma-separated case names to run (default: all)")
	flag.StringVar(&profileDir, "profile", "", "write a CPU profile of every run into this folder (CASE-RUN.prof, via BATON_CPUPROFILE)")
	flag.StringVar(&againstBinary, "against", "", "another baton binary (main's, say) to run beside this one, run by run, with both rows and the per-run ratios printed")
	flag.BoolVar(&tracing, "trace", false, "print every headless run's timeline on stderr: the process's start and end and each request on the server")
	flag.Parse()
	if err := measureAll(*runs, *only); err != nil {
		fmt.Fprintf(os.Stderr, "perf: %v\n", err)
		os.Exit(1)
	}
}

// profileDir, when set, is where each run's CPU profile goes.
var profileDir string

// againstBinary, when set, is a second baton measured beside the built
// one (see printAgainst).
var againstBinary string

// tools are the built programs a run needs.
type tools struct {
	baton, launch string
	// wholeBaton and wholeAgainst are baton and the -against binary
	// written in one write(2) (see sameFooting); "" until made.
	wholeBaton, wholeAgainst string
}

// measureAll builds baton and the launch helper, starts the endpoint and
// prints the table.
func measureAll(runs int, only string) error {
	work, err := os.MkdirTemp("", "baton-perf-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	t := tools{baton: filepath.Join(work, "baton"), launch: filepath.Join(work, "launch")}
	// Built as make build builds it: static, without cgo, linked where
	// make build links it.
	for _, b := range []struct{ out, pkg string }{{t.baton, "./cmd/baton"}, {t.launch, "./cmd/perf/launch"}} {
		build := exec.Command("go", "build", "-ldflags="+linkFlags(runtime.GOOS), "-o", b.out, b.pkg)
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("build %s: %w", b.pkg, err)
		}
	}
	if err := sameFooting(&t, work); err != nil {
		return err
	}
	srv, err := startServer()
	if err != nil {
		return err
	}
	fmt.Printf("%-24s %9s %9s %10s %9s  %-24s %s\n", fmt.Sprintf("case (median of %d)", runs), "wall", "cpu", "peak rss", "ttfb", "figure", "target: ratio")
	for _, c := range cases(srv) {
		if only != "" && !strings.Contains(","+only+",", ","+c.name+",") {
			continue
		}
		if err := measureCase(c, runs, t, filepath.Join(work, c.name), srv); err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
	}
	return nil
}

// measureCase runs one case runs times after a warm-up and prints its row.
func measureCase(c perfCase, runs int, t tools, dir string, srv *server) error {
	if c.skip != nil {
		if why := c.skip(); why != "" {
			fmt.Printf("%-24s skipped: %s\n", c.name, why)
			return nil
		}
	}
	h, err := newHome(dir, srv.url, c.config)
	if err != nil {
		return err
	}
	if c.seed != nil {
		if err := c.seed(t, h, srv); err != nil {
			return fmt.Errorf("seed: %w", err)
		}
	}
	other := againstBinary
	if c.wholeWrite {
		t.baton, other = t.wholeBaton, t.wholeAgainst
	}
	var samples, against []sample
	for i := range runs + 1 {
		// With -against, the two binaries take turns run by run, each
		// going first every other run, so that load and caches weigh on
		// both alike.
		order := []string{t.baton}
		if other != "" {
			order = []string{t.baton, other}
			if i%2 == 1 {
				order = []string{other, t.baton}
			}
		}
		for _, binary := range order {
			s, err := runSample(c, t, binary, h, srv, i)
			if err != nil {
				return err
			}
			if i == 0 { // the first run warms caches and is not counted
				continue
			}
			if binary == t.baton {
				samples = append(samples, s)
			} else {
				against = append(against, s)
			}
		}
	}
	printRow(c, medians(samples))
	if other != "" {
		printAgainst(c, samples, against)
	}
	return nil
}

// runSample runs one case once with the given baton binary.
func runSample(c perfCase, t tools, binary string, h *home, srv *server, i int) (sample, error) {
	srv.use(c.script)
	cmd := exec.Command(binary, c.args...)
	cmd.Dir, cmd.Env = h.project, h.env
	if profileDir != "" {
		which := ""
		if binary != t.baton {
			which = "-against"
		}
		cmd.Env = append(cmd.Env, fmt.Sprintf("BATON_CPUPROFILE=%s/%s-%d%s.prof", profileDir, c.name, i, which))
	}
	var s sample
	var err error
	if c.tui {
		var step tuiStep
		if c.step != nil {
			step = c.step(srv)
		}
		s, err = tuiRun(cmd, t.launch, step, c.settle)
	} else {
		s, err = runOnce(cmd, t.launch, srv.firstTokenAt, c.perChild)
		s.path, s.lag = srv.criticalPath(), srv.childLag()
		if tracing {
			printTimeline(c.name, i, binary, s.started, s.ended, srv.timeline())
		}
		if c.perChild || c.baseline != nil {
			s.extra = srv.childStart()
		}
	}
	if err != nil {
		return s, err
	}
	if c.baseline != nil {
		if s.baseline, err = c.baseline(); err != nil {
			return s, err
		}
	}
	return s, nil
}

// printRow writes one case's medians, its figure and its targets.
func printRow(c perfCase, m summary) {
	ttfb := "-"
	if m.ttfb >= 0 {
		ttfb = fmt.Sprintf("%.1f ms", ms(m.ttfb))
	}
	var figure []string
	switch {
	case c.tui && c.extraName == "":
		figure = append(figure, fmt.Sprintf("%.2f %% of a core", share(m)))
	case m.path > 0 && c.baseline == nil:
		// A case with a baseline is about its start, not its path.
		figure = append(figure, fmt.Sprintf("wall/path %.3f", m.wall.Seconds()/m.path.Seconds()))
	}
	if m.lag >= 0 && c.script.children > 0 && !c.tui {
		figure = append(figure, fmt.Sprintf("children +%.1f ms", ms(m.lag)))
	}
	if c.extraName != "" && m.extra >= 0 {
		figure = append(figure, fmt.Sprintf("%s %.1f ms", c.extraName, ms(m.extra)))
	}
	if c.baseline != nil {
		figure = append(figure, fmt.Sprintf("%s %.1f ms", c.baselineName, ms(m.baseline)))
	}
	if m.childRSS >= 0 {
		figure = append(figure, fmt.Sprintf("child rss %.1f MiB", float64(m.childRSS)/1024))
	}
	var verdicts []string
	for _, tg := range c.targets {
		v := tg.value(m)
		verdicts = append(verdicts, fmt.Sprintf("%s ≤ %g%s: %.2f", tg.figure, tg.limit, tg.unit, v/tg.limit))
	}
	fmt.Printf("%-24s %7.3f s %7.3f s %6.1f MiB %9s  %-24s %s\n", c.name, m.wall.Seconds(), m.cpu.Seconds(),
		float64(m.rss)/1024, ttfb, strings.Join(figure, ", "), strings.Join(verdicts, "; "))
}

// ms is d in milliseconds.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// share is the run's CPU as a percentage of one core over its wall time.
func share(m summary) float64 { return 100 * m.cpu.Seconds() / m.wall.Seconds() }

// sameFooting runs the built baton and the -against one from copies made
// alike. How a binary's file came into the page cache changes what
// starting it costs: the linker's freshly written output started with a
// quarter more CPU than a copy of the same bytes (--version, identical
// binaries, 15 of 15 runs), and a file written in large writes is cached
// in large pieces, which the kernel maps whole when one page of them is
// touched (--version of a binary linked at the usual address, written in
// one write(2): 18.6 MiB peak RSS against 11.3). A copy made as cp makes
// one is how a person's installed baton usually comes to be; the cases
// marked wholeWrite run copies written in one write, as an archive's
// unpacking or a download may leave the file.
func sameFooting(t *tools, work string) error {
	built, err := copyFile(t.baton, filepath.Join(work, "baton-run"))
	if err != nil {
		return err
	}
	if t.wholeBaton, err = writeWhole(t.baton, filepath.Join(work, "baton-whole")); err != nil {
		return err
	}
	t.baton = built
	if againstBinary != "" {
		if t.wholeAgainst, err = writeWhole(againstBinary, filepath.Join(work, "against-whole")); err != nil {
			return err
		}
		if againstBinary, err = copyFile(againstBinary, filepath.Join(work, "against")); err != nil {
			return err
		}
	}
	return nil
}

// writeWhole writes the executable src to dst in one write(2) and returns
// dst.
func writeWhole(src, dst string) (string, error) {
	data, err := os.ReadFile(src)
	if err != nil {
		return "", err
	}
	return dst, os.WriteFile(dst, data, 0o755)
}

// linkFlags are the linker flags make build gives on goos (the Makefile's
// LINK): on Linux the text 64 KiB past the usual address, so that no
// segment lines up with a 2 MiB page.
func linkFlags(goos string) string {
	if goos == "linux" {
		return "-T=0x411000"
	}
	return ""
}

// copyFile copies the executable src to dst, as cp does (the kernel copies
// the bytes), and returns dst.
func copyFile(src, dst string) (string, error) {
	in, err := os.Open(src)
	if err != nil {
		return "", err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return "", err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return "", fmt.Errorf("copy %s: %w", src, err)
	}
	return dst, out.Close()
}
