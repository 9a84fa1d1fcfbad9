package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/seed-e4e525a6/baton/engine"
)

// maxInputLine bounds one line of stream-json input: a user message is a
// prompt a person or a script wrote, with room for pasted files.
const maxInputLine = 4 << 20

// inputLine is one line read from stdin, or the error that ended it.
type inputLine struct {
	data []byte
	err  error
}

// streamInput reads Claude Code's stream-json from stdin, as the Claude
// Agent SDK writes it: user messages, one run each, and control requests
// (initialize, interrupt, set_model…), answered on stdout as Claude Code
// answers them. One goroutine reads stdin; everything else happens on the
// run's own goroutine, so answers and messages never interleave.
type streamInput struct {
	ch     chan inputLine
	done   chan struct{}
	out    *lineWriter
	stderr io.Writer
	run    headlessRun
	model  string
	// pending are prompts that came while a run was under way, sent in
	// order when it ends; eof says stdin has ended.
	pending []string
	eof     bool
	line    int
	// waiting are baton's can_use_tool questions by request id; asks
	// numbers them.
	waiting map[string]asked
	asks    int
	// taskCalls are the task calls' arguments by call id.
	taskCalls map[string]string
}

// newStreamInput starts reading r. The reading goroutine ends at the end
// of r, at a read error, or, once stop is called, at the next line.
func newStreamInput(r io.Reader, out *lineWriter, stderr io.Writer, run headlessRun) *streamInput {
	in := &streamInput{ch: make(chan inputLine), done: make(chan struct{}), out: out, stderr: stderr, run: run,
		waiting: map[string]asked{}, taskCalls: map[string]string{}}
	go in.read(r)
	return in
}

func (in *streamInput) read(r io.Reader) {
	defer close(in.ch)
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		data, err := readLine(br)
		if len(bytes.TrimSpace(data)) > 0 || err != nil && !errors.Is(err, io.EOF) {
			select {
			case in.ch <- inputLine{data: data, err: err}:
			case <-in.done:
				return
			}
		}
		if err != nil && !errors.Is(err, errLongLine) {
			return
		}
	}
}

// errLongLine is a line over maxInputLine: reported and skipped, and the
// lines after it still read.
var errLongLine = fmt.Errorf("a line longer than %d bytes; not read", maxInputLine)

// readLine reads one line of at most maxInputLine bytes; a longer one is
// read to its end and reported, so the next line still parses.
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	long := false
	for {
		chunk, err := br.ReadSlice('\n')
		if !long {
			line = append(line, chunk...)
			if len(line) > maxInputLine {
				line, long = nil, true
			}
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case long:
			return nil, errLongLine
		default:
			return line, err
		}
	}
}

// stop lets the reading goroutine end.
func (in *streamInput) stop() { close(in.done) }

// lines is the channel of lines, nil (never ready) without input or once
// it has ended.
func (in *streamInput) lines() <-chan inputLine {
	if in == nil || in.eof {
		return nil
	}
	return in.ch
}

// setUp reads up to the first prompt, answering control requests on the
// way: initialize may set the system prompt, so the session starts after
// it. ok is false when stdin ended (or ctx did) before any prompt.
func (in *streamInput) setUp(ctx context.Context, ecfg *engine.Config) (string, bool) {
	in.model = ecfg.Model
	for {
		select {
		case <-ctx.Done():
			return "", false
		case line, ok := <-in.lines():
			if !ok {
				in.eof = true
				return "", false
			}
			if prompt, isPrompt := in.handle(line, nil, ecfg); isPrompt {
				return prompt, true
			}
		}
	}
}

// during handles a line that came while a run was under way: a control
// request is answered at once (interrupt stops the turn), a prompt waits
// for the run to end.
func (in *streamInput) during(line inputLine, ok bool, s turnSession) {
	if !ok {
		in.eof = true
		in.refuseWaiting()
		return
	}
	if prompt, isPrompt := in.handle(line, s, nil); isPrompt {
		in.pending = append(in.pending, prompt)
	}
}

// next returns the next prompt: one that came during the last run, or
// the next one stdin brings. ok is false when stdin has ended (or ctx
// has) with none left.
func (in *streamInput) next(ctx context.Context, s turnSession) (string, bool) {
	for {
		if len(in.pending) > 0 {
			prompt := in.pending[0]
			in.pending = in.pending[1:]
			return prompt, true
		}
		if in.eof {
			return "", false
		}
		select {
		case <-ctx.Done():
			return "", false
		case line, ok := <-in.lines():
			in.during(line, ok, s)
		}
	}
}

// streamMessage is one line of input: a user message or a control
// request; other types are told about and skipped.
type streamMessage struct {
	Type      string          `json:"type"`
	Message   json.RawMessage `json:"message"`
	RequestID string          `json:"request_id"`
	Request   json.RawMessage `json:"request"`
	Response  json.RawMessage `json:"response"`
}

// handle reads one line. A user message returns its prompt; a control
// request is answered, before the session exists with ecfg to change,
// after it with s. Bad lines are reported on stderr and skipped: one
// mistake in a script never loses the session.
func (in *streamInput) handle(line inputLine, s turnSession, ecfg *engine.Config) (prompt string, isPrompt bool) {
	in.line++
	if line.err != nil && !errors.Is(line.err, io.EOF) {
		in.warn("%v", line.err)
		return "", false
	}
	var msg streamMessage
	if err := json.Unmarshal(line.data, &msg); err != nil {
		in.warn("not JSON: %v", err)
		return "", false
	}
	switch msg.Type {
	case "user":
		prompt, err := userPrompt(msg.Message)
		if err != nil {
			in.warn("%v", err)
			return "", false
		}
		return prompt, true
	case "control_request":
		in.answer(msg.RequestID, msg.Request, s, ecfg)
	case "control_response":
		in.answered(msg.Response, s)
	case "keep_alive", "update_environment_variables":
		// Keep-alives, and the SDK's environment for a process it starts.
	default:
		in.warn("a message of type %q; baton reads user messages and control requests", msg.Type)
	}
	return "", false
}

func (in *streamInput) warn(format string, args ...any) {
	fmt.Fprintf(in.stderr, "baton: stdin line %d: skipped: %s\n", in.line, fmt.Sprintf(format, args...))
}

// userPrompt is the text of a user message: a string, or text blocks
// joined by blank lines. A message with other blocks (an image) is
// refused whole rather than sent without them.
func userPrompt(raw json.RawMessage) (string, error) {
	var m struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(raw, &m); err != nil || len(m.Content) == 0 {
		return "", errors.New(`a user message needs "message": {"role": "user", "content": …}`)
	}
	var text string
	if json.Unmarshal(m.Content, &text) == nil {
		return nonEmpty(text)
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(m.Content, &blocks); err != nil {
		return "", errors.New("a user message's content must be text or a list of content blocks")
	}
	var parts []string
	for _, b := range blocks {
		if b.Type != "text" {
			return "", fmt.Errorf("a %q content block: baton sends text only", b.Type)
		}
		parts = append(parts, b.Text)
	}
	return nonEmpty(strings.Join(parts, "\n\n"))
}

func nonEmpty(prompt string) (string, error) {
	if strings.TrimSpace(prompt) == "" {
		return "", errors.New("the user message is empty")
	}
	return prompt, nil
}
