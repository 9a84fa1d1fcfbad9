package process

import (
	"crypto/rand"
	"encoding/json"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/lastbytes"
	"github.com/seed-e4e525a6/baton/engine/llm"
)

// Spares: a child process started before its child is asked for. Most of
// a child's start is the process's own (its program loaded, Go's runtime
// and every package initialised), none of which depends on the child: a
// spare does it before the child is asked for (the manager has spares
// readied once each request of the main agent is sent and as its model
// names task calls, see child.Warmer), then waits on its input
// for a spec like any child process, holding no key and no file (but
// for a moment its own /proc files, as it lets go of its start-up's code
// after spareSettle without a spec, see Main). It
// is started as every child process is (the same binary, environment
// without secrets, session of its own, death signal), in the session's
// workspace; once its spec comes it moves to the child's workspace and,
// for a child that outlives baton, gives up the death signal and writes
// its standard error to its Home, as a child started cold does. Start
// hands a spare one spec, the approved child's, and takes it out of the
// pool first, so none is given two; a spare that died meanwhile is ended
// and the child starts cold. A spare nobody takes is ended after
// spareIdle, or when the session ends (Cool): its input closes, it
// exits, and it is reaped.

// sparePrefix begins the name a spare is started with (baton __child
// spare-<random>), in place of the id of a child it does not have yet;
// the name is spareNameLen bytes long, room for the id it takes once its
// spec comes (see takeName).
const (
	sparePrefix  = "spare-"
	spareNameLen = 64
)

// spareName is a new spare's name.
func spareName() string {
	name := sparePrefix
	for len(name) < spareNameLen {
		name += strings.ToLower(rand.Text())
	}
	return name[:spareNameLen]
}

// processName is the last argument of the process of a child with id,
// started cold or in the spare named spare (""): its id, or the spare's
// name when the id was too long to take its place.
func processName(id, spare string) string {
	if spare != "" && len(id) > len(spare) {
		return spare
	}
	return id
}

// maxSpares bounds the spares waiting at once: the calls of one message
// rarely ask for more children, and each spare holds a process's memory
// until it is taken or ended.
const maxSpares = 4

// spareIdle is how long a spare waits for a child before it is ended.
const spareIdle = 30 * time.Second

// spareSettle is how long a spare waits for its spec before it lets go
// of its start-up's code (see Main).
const spareSettle = 50 * time.Millisecond

// spare is one spare child process, launched or being launched.
type spare struct {
	name string
	// launched closes once proc (or err) is set.
	launched chan struct{}
	proc     *execProc
	err      error
	// stderr keeps the end of what it writes to its standard error
	// while its child does not outlive baton.
	stderr *lastbytes.Writer
	idle   *time.Timer
}

// spares are a runner's spare child processes.
type spares struct {
	mu      sync.Mutex
	waiting []*spare
	cooled  bool
	// idle is spareIdle, shorter in tests; ended, when set, is told of
	// every spare ended unused (tests).
	idle  time.Duration
	ended func(*spare)
	// launching counts the goroutines launching spares.
	launching sync.WaitGroup
}

// Warm implements child.Warmer: it starts spares in the background until
// n wait (at most maxSpares), unless the session has ended or the runner
// does not start its children on this machine (Linux only: a spare's
// child that outlives baton leaves its death signal behind).
func (r *Runner) Warm(ws string, n int) {
	e, here := r.launcher().(Exec)
	if !here || runtime.GOOS != "linux" {
		return
	}
	s := &r.spares
	s.mu.Lock()
	defer s.mu.Unlock()
	for !s.cooled && len(s.waiting) < min(n, maxSpares) {
		s.launch(e, ws)
	}
}

// launch starts one more spare in the workspace ws; s.mu is held.
func (s *spares) launch(e Exec, ws string) {
	sp := &spare{name: spareName(), launched: make(chan struct{}), stderr: &lastbytes.Writer{Max: 2 << 10}}
	s.waiting = append(s.waiting, sp)
	idle := s.idle
	if idle == 0 {
		idle = spareIdle
	}
	sp.idle = time.AfterFunc(idle, func() {
		if s.remove(sp) {
			s.end(sp)
		}
	})
	s.launching.Add(1)
	// Ends once the spare's process has started, or failed to: a fork
	// and exec, bounded.
	go func() {
		defer s.launching.Done()
		sp.proc, sp.err = e.launch(ws, []string{Subcommand, sp.name}, procAttr(false), sp.stderr)
		close(sp.launched)
		warmBaton()
	}()
}

// Cool implements child.Warmer: it ends every spare not taken, waits for
// those being launched, and starts none after.
func (r *Runner) Cool() {
	s := &r.spares
	s.mu.Lock()
	s.cooled = true
	waiting := s.waiting
	s.waiting = nil
	s.mu.Unlock()
	for _, sp := range waiting {
		sp.idle.Stop()
		s.end(sp)
	}
	s.launching.Wait()
}

// take returns a live spare, out of the pool for good, or nil when none
// waits: a spare still being launched is waited for (its fork and exec
// are under way, and a cold start would only queue behind them), one
// that failed to start or has died is ended and the next one tried.
func (s *spares) take() *spare {
	for {
		s.mu.Lock()
		if len(s.waiting) == 0 {
			s.mu.Unlock()
			return nil
		}
		sp := s.waiting[0]
		s.waiting = s.waiting[1:]
		s.mu.Unlock()
		sp.idle.Stop()
		<-sp.launched
		if sp.err == nil && !exited(sp.proc.Pid()) {
			return sp
		}
		s.end(sp)
	}
}

// remove takes sp out of the pool, reporting whether it was there.
func (s *spares) remove(sp *spare) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, w := range s.waiting {
		if w == sp {
			s.waiting = append(s.waiting[:i], s.waiting[i+1:]...)
			return true
		}
	}
	return false
}

// end ends a spare that was not taken: its input closes, which it reads
// as the end (it exits at once), it is killed should it not have, and
// reaped.
func (s *spares) end(sp *spare) {
	<-sp.launched
	if sp.err == nil {
		_ = sp.proc.in.Close()
		sp.proc.Kill()
		_ = sp.proc.Wait()
	}
	if s.ended != nil {
		s.ended(sp)
	}
}

// sample is a line each way of the protocol, with the parts every
// child's start uses whatever its spec: a spec with its history, tools
// and models; an event, a message and a result.
func sample() (down, up, []openai.ChatCompletionMessage) {
	call := []openai.ToolCall{{ID: "c", Type: openai.ToolTypeFunction, Function: openai.FunctionCall{Name: "t", Arguments: "{}"}}}
	msgs := []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleAssistant, Content: "a", ToolCalls: call}}
	ev, _ := event.MarshalEvent(event.TextDelta{Text: "a"})
	return down{Spec: &spec{History: msgs, Parent: []parentTool{{Name: "t"}}, Models: []llm.ModelInfo{{ID: "m"}}}},
		up{Event: ev, Message: &msgs[0], Result: &agent.Result{}}, msgs
}

// warm does, in a spare waiting for its spec (not one whose spec came
// while it started: that would only delay its child), the first use of what
// every child's start uses once per process whatever its spec (and again,
// to map its code anew, once the spare let go of its start-up's): the JSON
// coders of the protocol's lines, of its events and of a model request,
// and the stream's chunk decoder (about a millisecond of a child's start
// otherwise). It stops as soon as come says the spec has come: the child
// does what is left as it needs it, the chunk decoder only once its
// request is sent.
func warm(come func() bool) {
	d, u, msgs := sample()
	steps := []func(){
		func() {
			line, _ := json.Marshal(d)
			_ = json.Unmarshal(line, &down{})
		},
		func() { _, _ = json.Marshal(u) },
		func() {
			_, _ = json.Marshal(openai.ChatCompletionRequest{Model: "m", Messages: msgs,
				Tools: []openai.Tool{{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{Name: "t", Parameters: json.RawMessage(`{}`)}}}})
		},
		llm.Warm,
	}
	for _, step := range steps {
		if come() {
			return
		}
		step()
	}
}

// readySpare readies a spare whose spec comes on in: it warms up (see
// warm), and if the spec has not come within spareSettle, lets go of the
// code only its initialisation ran (drop) and warms up again, mapping
// anew what every child runs: about 2.2 MiB less at the peak of the
// child it becomes, 3.8 MiB less while it waits. A spare whose spec comes
// sooner, as a delegation written at once does, has no faults to pay on
// its child's way.
func readySpare(in *os.File, drop func()) {
	come := func() bool { return waiting(in) }
	warm(come)
	if quietFor(in, spareSettle) {
		drop()
		warm(come)
	}
}

// warmBaton does the same on baton's side, once, as its first spare has
// started: the first use of the coders of a spec and of a child's lines,
// which would otherwise fall to the first child's start (its spec is
// written after that).
var warmBaton = sync.OnceFunc(func() {
	d, u, _ := sample()
	_, _ = json.Marshal(d)
	line, _ := json.Marshal(u)
	_ = json.Unmarshal(line, &up{})
})
