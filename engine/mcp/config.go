// Package mcp connects baton to Model Context Protocol servers and offers
// their tools to agents as mcp__SERVER__TOOL. It reads the server
// definitions of baton, Claude Code and OpenCode, starts every server in
// the background, keeps a status per server, restarts a crashed one with
// backoff and ends every server process with the manager.
package mcp

import (
	"errors"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// Server is one configured MCP server: a command run over stdio, or a
// streamable HTTP endpoint.
type Server struct {
	// Name is the name tools are offered under (mcp__NAME__tool).
	Name string
	// Command, Args and Env start a stdio server; Env adds to baton's
	// environment (less its API key).
	Command string
	Args    []string
	Env     map[string]string
	// URL and Headers reach a streamable HTTP server, or a server of the
	// older SSE transport when SSE is set.
	URL     string
	Headers map[string]string
	SSE     bool
	// Source names where the definition came from, for messages.
	Source string
	// Project marks a definition that came with the repository; it runs
	// only in a trusted folder or once the person allowed it.
	Project bool
	// CallTimeout bounds one tool call to this server; zero takes the
	// manager's (Options.CallTimeout), and MaxCallTimeout caps both.
	CallTimeout time.Duration
}

// validName is what a server or tool name may hold once it becomes part
// of a function name: OpenAI accepts [a-zA-Z0-9_-] only.
func validName() *regexp.Regexp {
	validNameOnce.Do(func() { validNameValue = regexp.MustCompile(`^[A-Za-z0-9_-]+$`) })
	return validNameValue
}

// validNameOnce and validNameValue hold it, built on first use (a zero
// sync.Once costs nothing at start; sync.OnceValue is init code).
var (
	validNameOnce  sync.Once
	validNameValue *regexp.Regexp
)

// Check rejects a definition that cannot be started, saying why.
func (s Server) Check() error {
	switch {
	case !validName().MatchString(s.Name) || strings.Contains(s.Name, "__"):
		return fmt.Errorf("server name %q: use letters, digits, '-' and single '_'", s.Name)
	case s.Command != "" && s.URL != "":
		return errors.New("give either command or url, not both")
	case s.Command == "" && s.URL == "":
		return errors.New("give a command (stdio server) or a url (HTTP server)")
	case s.URL != "":
		u, err := url.Parse(s.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("url %q: expected an http(s) URL", s.URL)
		}
	}
	return nil
}

// Target is what the server runs or reaches, for people: the command line
// with each argument quoted when needed, or the URL.
func (s Server) Target() string {
	if s.URL != "" {
		return s.URL
	}
	parts := []string{quote(s.Command)}
	for _, a := range s.Args {
		parts = append(parts, quote(a))
	}
	line := strings.Join(parts, " ")
	if len(s.Env) > 0 {
		var env []string
		for _, k := range slices.Sorted(maps.Keys(s.Env)) {
			env = append(env, k+"="+quote(shownValue(k, s.Env[k])))
		}
		line = strings.Join(env, " ") + " " + line
	}
	return line
}

// shownValue hides the value of a variable whose name says it holds a
// secret; the rest (LD_PRELOAD, NODE_OPTIONS…) is shown, since that is
// what a person approving the command must see.
func shownValue(name, value string) string {
	upper := strings.ToUpper(name)
	for _, word := range []string{"TOKEN", "KEY", "SECRET", "PASSWORD", "PASS", "AUTH"} {
		if strings.Contains(upper, word) {
			return "…"
		}
	}
	return value
}

// safeWord is an argument that needs no quoting.
func safeWord() *regexp.Regexp {
	safeWordOnce.Do(func() { safeWordValue = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`) })
	return safeWordValue
}

// safeWordOnce and safeWordValue hold it, built on first use (a zero
// sync.Once costs nothing at start; sync.OnceValue is init code).
var (
	safeWordOnce  sync.Once
	safeWordValue *regexp.Regexp
)

// quote wraps an argument in single quotes unless it is plainly safe, so a
// command line shown for approval reads exactly as it runs.
func quote(s string) string {
	if safeWord().MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
