package process

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/rules"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// maxLine bounds one line of the protocol, either way: a tool result or
// a history message is at most a few MiB (the largest tool output a
// configuration allows), far below it.
const maxLine = 32 << 20

// spec is the first line baton writes to a child process: everything its
// loop needs. The API key is in it, and reaches the child process only
// there: never in its arguments or its environment, which its commands
// could read.
type spec struct {
	Meta    event.Meta                     `json:"meta"`
	Prompt  string                         `json:"prompt"`
	History []openai.ChatCompletionMessage `json:"history"`
	// Steers are the messages the person sent before the child started.
	Steers      []string      `json:"steers,omitempty"`
	Model       string        `json:"model"`
	Fallback    string        `json:"fallback_model,omitempty"`
	Effort      string        `json:"effort,omitempty"`
	Temperature *float64      `json:"temperature,omitempty"`
	TopP        *float64      `json:"top_p,omitempty"`
	MaxSteps    int           `json:"max_steps"`
	Timeout     time.Duration `json:"timeout"`
	Budget      event.Budget  `json:"budget"`
	Depth       int           `json:"depth"`
	Workspace   string        `json:"workspace"`
	Toolbox     child.Toolbox `json:"toolbox"`
	// Parent are the tools that stay with baton (MCP servers, task),
	// which the child calls through the protocol.
	Parent   []parentTool        `json:"parent_tools,omitempty"`
	Endpoint endpoint            `json:"endpoint"`
	Models   []llm.ModelInfo     `json:"models,omitempty"`
	Requests agent.RequestPolicy `json:"requests"`
	// OutputChars bounds one tool result; ContextFileBytes a nested
	// AGENTS.md.
	OutputChars      int `json:"output_chars"`
	ContextFileBytes int `json:"context_file_bytes"`
	// Tag marks the child's commands, so baton can clean up after a
	// child that dies (sandbox.Sweep).
	Tag string `json:"tag"`
	// Skills are the skills it may load and has loaded from its start.
	Skills child.SkillSpec `json:"skills"`
	// Hooks says baton runs hooks for it, at its ask.
	Hooks bool `json:"hooks,omitempty"`
	// Instructions is what its MCP servers add to its system prompt, as
	// they were when it started.
	Instructions string `json:"instructions,omitempty"`
	// Home, Socket and Token make the child detachable (see home.go):
	// it logs what it sends in Home, outlives baton, and lets a later
	// baton that knows Token attach on the abstract Unix socket Socket.
	Home   string `json:"home,omitempty"`
	Socket string `json:"socket,omitempty"`
	Token  string `json:"token,omitempty"`
}

// endpoint is where the child's model requests go.
type endpoint struct {
	BaseURL  string       `json:"base_url"`
	APIKey   string       `json:"api_key"`
	Timeouts llm.Timeouts `json:"timeouts"`
	// Socket, when set, is the Unix socket through which the endpoint
	// is reached: a child without a network of its own (a container)
	// has baton relay its model connections.
	Socket string `json:"socket,omitempty"`
}

// parentTool is a tool that stays with baton, as the child's model sees
// it; Caller marks one that acts for its caller (task).
type parentTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	ReadOnly    bool            `json:"read_only"`
	Caller      bool            `json:"caller,omitempty"`
}

// down is one line from baton to the child: its spec (the first line),
// a reply to one of its questions, a note that a caller tool's call is
// ready, a control, or an abort with its cause.
type down struct {
	Spec    *spec          `json:"spec,omitempty"`
	Reply   *reply         `json:"reply,omitempty"`
	Ready   int64          `json:"ready,omitempty"`
	Control *child.Control `json:"control,omitempty"`
	Abort   string         `json:"abort,omitempty"`
	// Attach is the first line of a baton that attaches to a detached
	// child: its token, and the last line of the child it has taken.
	Attach *attach `json:"attach,omitempty"`
}

// attach is what a baton attaching to a detached child says first.
type attach struct {
	Token string `json:"token"`
	From  int64  `json:"from"`
}

// The causes an abort names, as the child's context is ended with them.
const (
	abortStopped      = "stopped"
	abortSessionEnded = "session_ended"
	abortTimedOut     = "timed_out"
	abortCancelled    = "cancelled"
)

// up is one line from the child to baton: an event, a message added to
// its history, a question, a lock given back, the go of a caller tool's
// batch, or its result (the last line).
type up struct {
	Event   json.RawMessage               `json:"event,omitempty"`
	Message *openai.ChatCompletionMessage `json:"message,omitempty"`
	Ask     *question                     `json:"ask,omitempty"`
	Unlock  int64                         `json:"unlock,omitempty"`
	Go      int64                         `json:"go,omitempty"`
	// Loaded names a skill the child loaded, for /skills.
	Loaded string        `json:"loaded,omitempty"`
	Result *agent.Result `json:"result,omitempty"`
	// Seq numbers a detachable child's lines, as its log keeps them;
	// Caught ends the lines replayed to an attaching baton, after which
	// the questions still open are asked again (without a Seq).
	Seq    int64 `json:"seq,omitempty"`
	Caught int64 `json:"caught,omitempty"`
}

// question is what the child asks baton, numbered so the reply finds it.
type question struct {
	ID int64 `json:"id"`
	// Authorize asks whether a tool call may run.
	Authorize *authorize `json:"authorize,omitempty"`
	// Tool runs a tool that stays with baton.
	Tool *toolCall `json:"tool,omitempty"`
	// Lock holds a file for a write (an absolute, resolved path).
	Lock string `json:"lock,omitempty"`
	// Hook runs the session's hooks at a point of the child's loop.
	Hook *hookPoint `json:"hook,omitempty"`
}

// hookPoint is a point of the child's loop where the session's hooks run.
type hookPoint struct {
	// At is "before_tool", "after_tool", "stop" or "ended".
	At     string          `json:"at"`
	Call   openai.ToolCall `json:"call,omitzero"`
	Output string          `json:"output,omitempty"`
	Last   string          `json:"last,omitempty"`
	Active bool            `json:"active,omitempty"`
}

// The points of a hookPoint.
const (
	hookBeforeTool = "before_tool"
	hookAfterTool  = "after_tool"
	hookStop       = "stop"
	hookEnded      = "ended"
)

// authorize is a tool call to decide; Preview (or PreviewError) is what
// the tool's card would show, made where the tool runs.
type authorize struct {
	CallID       string          `json:"call_id"`
	Tool         string          `json:"tool"`
	Args         json.RawMessage `json:"args"`
	Preview      string          `json:"preview,omitempty"`
	PreviewError string          `json:"preview_error,omitempty"`
	// Hook, Narrowed and Skills are agent.ToolRequest's.
	Hook     string       `json:"hook,omitempty"`
	Narrowed []rules.Rule `json:"narrowed,omitempty"`
	Skills   string       `json:"skills,omitempty"`
}

// toolCall is a call of a tool that stays with baton; Batch is, for a
// caller tool, the arguments of its calls in the same message.
type toolCall struct {
	CallID string            `json:"call_id"`
	Name   string            `json:"name"`
	Args   json.RawMessage   `json:"args"`
	Batch  []json.RawMessage `json:"batch,omitempty"`
}

// reply answers a question: Error (Denied when the person said no); for
// an allowed search, what the rules keep from the model; for a tool, its
// result.
type reply struct {
	ID       int64                   `json:"id"`
	Error    string                  `json:"error,omitempty"`
	Denied   *agent.DeniedError      `json:"denied,omitempty"`
	Withhold *permission.Withholding `json:"withhold,omitempty"`
	Result   *tools.Result           `json:"result,omitempty"`
	Advice   *agent.HookAdvice       `json:"advice,omitempty"`
}

// err is the reply's error, nil when it has none.
func (r reply) err() error {
	switch {
	case r.Denied != nil:
		return r.Denied
	case r.Error != "":
		return errors.New(r.Error)
	}
	return nil
}

// errorReply answers question id with err.
func errorReply(id int64, err error) reply {
	r := reply{ID: id}
	if err == nil {
		return r
	}
	if denied, ok := errors.AsType[*agent.DeniedError](err); ok {
		r.Denied = denied
	}
	r.Error = err.Error()
	return r
}

// lineWriter writes one JSON value a line, from any goroutine.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

// write encodes v as one line.
func (lw *lineWriter) write(v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode: %w", err)
	}
	lw.mu.Lock()
	defer lw.mu.Unlock()
	_, err = lw.w.Write(append(data, '\n'))
	return err
}

// lineReader reads lines of at most maxLine bytes.
type lineReader struct {
	r *bufio.Reader
}

// newLineReader reads lines from r.
func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// errLongLine is a line longer than maxLine (32 MiB; errors.New of a
// constant is built by the compiler, fmt.Errorf at every start).
var errLongLine = errors.New("a line longer than 32 MiB")

// next returns the next line without its newline; io.EOF at the end.
func (lr *lineReader) next() ([]byte, error) {
	var line []byte
	for {
		part, err := lr.r.ReadSlice('\n')
		if len(line)+len(part) > maxLine {
			return nil, errLongLine
		}
		line = append(line, part...)
		switch {
		case err == nil:
			return bytes.TrimSuffix(line, []byte{'\n'}), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) > 0:
			return nil, io.ErrUnexpectedEOF
		}
		return nil, err
	}
}
