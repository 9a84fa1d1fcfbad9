// Command perf measures baton as whole processes, the way a person meets
// it: it builds the binary, starts a scripted OpenAI-compatible endpoint on
// loopback and runs each case several times (headless cases on pipes, TUI
// cases in a pseudo-terminal), printing the medians of wall time, CPU time,
// peak RSS and time to first stdout byte. `make perf` runs it.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// perfCase is one row of the table.
type perfCase struct {
	name   string
	script script
	args   []string
	// tui runs the case in a pseudo-terminal, typing prompt.
	tui    bool
	prompt string
	settle time.Duration
	// sessions is how many stored sessions the state folder holds first.
	sessions int
	// config is the user config the case runs with ("": none).
	config string
}

func main() {
	runs := flag.Int("runs", 7, "measured runs per case (the median is printed)")
	only := flag.String("cases", "", "comma-separated case names to run (default: all)")
	flag.StringVar(&profileDir, "profile", "", "write a CPU profile of every run into this folder (CASE-RUN.prof, via BATON_CPUPROFILE)")
	flag.Parse()
	if err := measureAll(*runs, *only); err != nil {
		fmt.Fprintf(os.Stderr, "perf: %v\n", err)
		os.Exit(1)
	}
}

// profileDir, when set, is where each run's CPU profile goes.
var profileDir string

// cases are the targets of the performance issue, in its order.
func cases() []perfCase {
	const words = 300
	return []perfCase{
		{name: "version", args: []string{"--version"}},
		{name: "plain-300-words", script: script{words: words}, args: []string{"-p", "hello"}},
		{name: "paced-300-words", script: script{words: words, pace: 10 * time.Millisecond}, args: []string{"-p", "hello"}},
		{name: "three-children-paced", script: script{words: 100, pace: 10 * time.Millisecond, children: 3}, args: []string{"--yolo", "-p", "split"}},
		{name: "three-children-process", script: script{words: 100, pace: 10 * time.Millisecond, children: 3}, args: []string{"--yolo", "-p", "split"},
			config: "[subagents]\nrunner = \"process\"\n"},
		{name: "plain-10000-sessions", script: script{words: words}, args: []string{"-p", "hello"}, sessions: 10000},
		{name: "tui-paced-300-words", script: script{words: words, pace: 10 * time.Millisecond}, tui: true, prompt: "hello", settle: 300 * time.Millisecond},
		{name: "tui-8-panes-paced", script: script{words: 300, pace: 10 * time.Millisecond, children: 8}, args: []string{"--yolo"}, tui: true, prompt: "split", settle: 300 * time.Millisecond},
		{name: "tui-idle-5s", tui: true, settle: 5 * time.Second},
		{name: "tui-idle-15s", tui: true, settle: 15 * time.Second},
	}
}

// measureAll builds baton, starts the endpoint and prints the table.
func measureAll(runs int, only string) error {
	work, err := os.MkdirTemp("", "baton-perf-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	bin := filepath.Join(work, "baton")
	// Built as make build builds it: static, without cgo.
	build := exec.Command("go", "build", "-o", bin, "./cmd/baton")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("build baton: %w", err)
	}
	srv, err := startServer()
	if err != nil {
		return err
	}
	fmt.Printf("%-28s %11s %11s %12s %10s\n", "case (medians of "+fmt.Sprint(runs)+")", "wall", "cpu", "peak rss", "ttfb")
	for _, c := range cases() {
		if only != "" && !strings.Contains(","+only+",", ","+c.name+",") {
			continue
		}
		if err := measureCase(c, runs, bin, work, srv); err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
	}
	return nil
}

// measureCase runs one case runs times after a warm-up and prints its row.
func measureCase(c perfCase, runs int, bin, work string, srv *server) error {
	home := filepath.Join(work, c.name)
	ws := filepath.Join(home, "project")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		return err
	}
	if c.sessions > 0 {
		if err := seedSessions(bin, ws, home, srv, c.sessions); err != nil {
			return err
		}
	}
	if c.config != "" {
		config := filepath.Join(home, "config", "baton", "config.toml")
		if err := os.MkdirAll(filepath.Dir(config), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(config, []byte(c.config), 0o644); err != nil {
			return err
		}
	}
	var samples []sample
	for i := range runs + 1 {
		srv.use(c.script)
		cmd := exec.Command(bin, c.args...)
		cmd.Dir = ws
		cmd.Env = caseEnv(home, srv.url)
		if profileDir != "" {
			cmd.Env = append(cmd.Env, fmt.Sprintf("BATON_CPUPROFILE=%s/%s-%d.prof", profileDir, c.name, i))
		}
		var s sample
		var err error
		if c.tui {
			s, err = tuiRun{cmd: cmd, prompt: c.prompt, settle: c.settle, answered: srv.answered}.run()
		} else {
			s, err = runOnce(cmd, srv.firstTokenAt)
			s.path, s.lag = srv.criticalPath(), srv.childLag()
		}
		if err != nil {
			return err
		}
		if i > 0 { // the first run warms caches and is not counted
			samples = append(samples, s)
		}
	}
	m := medians(samples)
	extra := ""
	switch {
	case c.tui:
		extra = fmt.Sprintf("%.1f %% of a core", 100*m.cpu.Seconds()/m.wall.Seconds())
	case m.path > 0:
		extra = fmt.Sprintf("wall/server %.3f", m.wall.Seconds()/m.path.Seconds())
	}
	if m.lag >= 0 && c.script.children > 0 && !c.tui {
		extra += fmt.Sprintf(", children +%.1f ms", float64(m.lag.Microseconds())/1000)
	}
	printRow(os.Stdout, c.name, m, extra)
	return nil
}

// caseEnv is a clean environment: its own home and state, the scripted
// endpoint, and nothing of the person's configuration.
func caseEnv(home, url string) []string {
	return []string{
		"HOME=" + home, "PATH=" + os.Getenv("PATH"), "TERM=xterm-256color", "LANG=C.UTF-8",
		"XDG_STATE_HOME=" + filepath.Join(home, "state"), "XDG_CONFIG_HOME=" + filepath.Join(home, "config"),
		"OPENAI_API_KEY=sk-perf", "OPENAI_BASE_URL=" + url, "BATON_MODEL=perf-model",
	}
}
