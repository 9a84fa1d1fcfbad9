package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// script is what the scripted endpoint answers, chosen per case.
type script struct {
	// words is the length of every answer, in words.
	words int
	// pace is the pause between words (0: unpaced).
	pace time.Duration
	// children is how many sub-agents the main agent delegates to at
	// once before answering (0: it answers at once).
	children int
	// childTools is how many tool calls a child's first reply carries
	// after its words; the child answers once their results are back
	// (0: a child answers at once).
	childTools int
	// end, when set, closes every main-agent answer.
	end string
	// streamCalls streams the delegation's task calls at the pace, as a
	// model writes them: each call's name, then its arguments in pieces
	// (0 pace or false: the whole delegation at once).
	streamCalls bool
	// split sends every event in two writes, each flushed (its data
	// field, then the blank line that ends it), as servers that write an
	// event line by line do: two packets a chunk.
	split bool
}

// server is a scripted OpenAI-compatible endpoint on loopback. It answers
// as a real provider does (OpenAI's chunk shape with its id, model and
// null fields, a model list of a gateway's size), and it keeps the run's
// own time: how long each request took it, so that whatever a run's wall
// time adds is baton's.
type server struct {
	srv *http.Server
	url string
	// requests numbers the requests, for reply and tool-call ids.
	requests atomic.Int64

	mu         sync.Mutex
	script     script
	firstToken time.Time
	// mainDone counts the main agent's finished answers in this run.
	mainDone int
	// mainSpans are the main agent's requests, from arrival to last
	// byte; childSpans add up each child's requests by child; fanOutEnd
	// is when the message asking for the children ended, childStarts
	// when each child's first request arrived.
	mainSpans   []time.Duration
	childSpans  map[string]time.Duration
	fanOutEnd   time.Time
	childStarts []time.Time
	// marks is the run's timeline on the server (see -trace).
	marks []mark
}

// mark is one moment of a run's timeline: a request arriving or ending.
type mark struct {
	at   time.Time
	what string
}

// note adds a moment to the timeline; s.mu is held.
func (s *server) note(what string) { s.marks = append(s.marks, mark{time.Now(), what}) }

// timeline is the run's moments on the server, in order.
func (s *server) timeline() []mark {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.marks)
}

// startServer listens on a free loopback port.
func startServer() (*server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen: %w", err)
	}
	s := &server{url: "http://" + ln.Addr().String() + "/v1"}
	s.srv = &http.Server{Handler: http.HandlerFunc(s.handle), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// use sets the script for the next run and forgets the last run.
func (s *server) use(sc script) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script, s.firstToken, s.mainDone = sc, time.Time{}, 0
	s.mainSpans, s.childSpans, s.fanOutEnd, s.childStarts = nil, map[string]time.Duration{}, time.Time{}, nil
	s.marks = nil
}

// criticalPath is the run's own time on the server: its main requests one
// after the other, plus the child whose requests took longest (children
// run side by side).
func (s *server) criticalPath() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	var path, longest time.Duration
	for _, d := range s.mainSpans {
		path += d
	}
	for _, d := range s.childSpans {
		longest = max(longest, d)
	}
	return path + longest
}

// childLag is how long after the fan-out message ended the last child's
// first request arrived; negative when the run had no children.
func (s *server) childLag() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fanOutEnd.IsZero() || len(s.childStarts) == 0 {
		return -1
	}
	var lag time.Duration
	for _, at := range s.childStarts {
		lag = max(lag, at.Sub(s.fanOutEnd))
	}
	return lag
}

// childStart is how long after the fan-out message ended the median
// child's first request arrived; negative when the run had no children.
func (s *server) childStart() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fanOutEnd.IsZero() || len(s.childStarts) == 0 {
		return -1
	}
	starts := make([]time.Duration, len(s.childStarts))
	for i, at := range s.childStarts {
		starts[i] = at.Sub(s.fanOutEnd)
	}
	return median(starts)
}

// answered reports how many answers the main agent has had whole.
func (s *server) answered() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mainDone
}

// childrenStarted reports how many children have sent a first request.
func (s *server) childrenStarted() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.childStarts)
}

// firstTokenAt is when the current run's first token was written.
func (s *server) firstTokenAt() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.firstToken
}

// request is the part of a chat request the script looks at.
type request struct {
	Model    string `json:"model"`
	Messages []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
}

// partRE finds which child a request is: the delegation names each
// child's part in its prompt.
var partRE = regexp.MustCompile(`Describe part (\d+)\.`)

func (s *server) handle(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(modelList)
		return
	}
	arrived := time.Now()
	var req request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Messages) == 0 {
		http.Error(w, fmt.Sprintf("bad request: %v", err), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	sc := s.script
	s.mu.Unlock()
	child := ""
	if strings.Contains(req.Messages[0].Content, "sub-agent") {
		for _, m := range req.Messages {
			if p := partRE.FindStringSubmatch(m.Content); p != nil {
				child = p[1]
				break
			}
		}
	}
	toolResults := req.Messages[len(req.Messages)-1].Role == "tool"
	who := "main"
	if child != "" {
		who = "child " + child
	}
	s.mu.Lock()
	s.marks = append(s.marks, mark{arrived, who + " request"})
	if child != "" && !toolResults {
		s.childStarts = append(s.childStarts, arrived)
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	st := &stream{w: w, model: req.Model, id: fmt.Sprintf("chatcmpl-perf%d", s.requests.Add(1)), split: sc.split}
	if sc.streamCalls {
		st.pace = sc.pace
	}
	fanOut := child == "" && sc.children > 0 && !toolResults
	// The request is accounted for when its reply ends, before the last
	// line ([DONE]) goes out: by the time baton has read the reply, and
	// may have exited, the run's figures hold it. A reply cut short is
	// accounted for as the handler returns.
	st.ending = sync.OnceFunc(func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.note(who + " answered")
		if child != "" {
			s.childSpans[child] += time.Since(arrived)
		} else {
			s.mainSpans = append(s.mainSpans, time.Since(arrived))
		}
		switch {
		case fanOut:
			s.fanOutEnd = time.Now()
		case child == "":
			s.mainDone++
		}
	})
	defer st.ending()
	switch {
	case fanOut:
		st.delegate(sc.children)
	case child != "" && sc.childTools > 0 && !toolResults:
		if s.words(r, st, sc, false) {
			st.toolCalls(child, sc.childTools)
		}
	default:
		if s.words(r, st, sc, child == "") {
			if child == "" && sc.end != "" {
				st.content(sc.end)
			}
			st.finish("stop")
		}
	}
}

// words streams sc.words words, paced, noting the run's first token. It
// reports whether they were all sent.
func (s *server) words(r *http.Request, st *stream, sc script, main bool) bool {
	st.role()
	for i := range sc.words {
		st.content(fmt.Sprintf("word%d ", i))
		if i == 0 && main {
			s.mu.Lock()
			if s.firstToken.IsZero() {
				s.firstToken = time.Now()
			}
			s.mu.Unlock()
		}
		if sc.pace > 0 {
			select {
			case <-time.After(sc.pace):
			case <-r.Context().Done():
				return false
			}
		}
	}
	return true
}

// stream writes one reply as OpenAI's streaming API does: every chunk
// carries the id, object, creation time, model and system fingerprint,
// nulls where a field is empty, and "usage": null until the last.
type stream struct {
	w     http.ResponseWriter
	model string
	id    string
	split bool
	// pace, when set, is the pause after each piece of a tool call.
	pace time.Duration
	// ending is called as the reply ends, before its last line.
	ending func()
}

// send writes one chunk with the given choices and usage and flushes it.
func (st *stream) send(choices []any, usage any) {
	b, _ := json.Marshal(map[string]any{
		"id": st.id, "object": "chat.completion.chunk", "created": 1764300000, "model": st.model,
		"system_fingerprint": "fp_perf0000", "choices": choices, "usage": usage,
	})
	f, _ := st.w.(http.Flusher)
	if st.split && f != nil {
		_, _ = fmt.Fprintf(st.w, "data: %s\n", b)
		f.Flush()
		_, _ = fmt.Fprint(st.w, "\n")
	} else {
		_, _ = fmt.Fprintf(st.w, "data: %s\n\n", b)
	}
	if f != nil {
		f.Flush()
	}
}

// choice is one choice of a chunk.
func choice(delta map[string]any, finish any) []any {
	return []any{map[string]any{"index": 0, "delta": delta, "logprobs": nil, "finish_reason": finish}}
}

// role opens the reply as OpenAI does: the role and empty content.
func (st *stream) role() {
	st.send(choice(map[string]any{"role": "assistant", "content": "", "refusal": nil}, nil), nil)
}

// content sends one piece of text.
func (st *stream) content(text string) { st.send(choice(map[string]any{"content": text}, nil), nil) }

// finish ends the reply with a finish reason, the usage and [DONE].
func (st *stream) finish(reason string) {
	st.send(choice(map[string]any{}, reason), nil)
	st.send([]any{}, map[string]any{"prompt_tokens": 1200, "completion_tokens": 320, "total_tokens": 1520})
	if st.ending != nil {
		st.ending()
	}
	_, _ = fmt.Fprint(st.w, "data: [DONE]\n\n")
	if f, ok := st.w.(http.Flusher); ok {
		f.Flush()
	}
}

// delegate asks for n explore children in one message, each task call's
// arguments streamed in two pieces.
func (st *stream) delegate(n int) {
	st.role()
	for i := range n {
		args := fmt.Sprintf(`{"description":"part %d","prompt":"Describe part %d.","subagent_type":"explore"}`, i+1, i+1)
		st.toolCall(i, fmt.Sprintf("call_%s_task%d", st.id, i), "task", args)
	}
	st.finish("tool_calls")
}

// toolCalls ends a child's first reply with n read-only tool calls, the
// kind an explorer makes: the README, then a search in the package of
// its part.
func (st *stream) toolCalls(child string, n int) {
	part, _ := strconv.Atoi(child)
	calls := [][2]string{
		{"read_file", `{"path":"README.md"}`},
		{"grep", fmt.Sprintf(`{"pattern":"func New","path":"internal/pkg%d"}`, part%projectPackages)},
		{"list_files", fmt.Sprintf(`{"path":"internal/pkg%d"}`, part%projectPackages)},
	}
	for i := range n {
		c := calls[i%len(calls)]
		st.toolCall(i, fmt.Sprintf("call_%s_%s_%d", st.id, child, i), c[0], c[1])
	}
	st.finish("tool_calls")
}

// toolCall streams one tool call: its id (unique, as providers make
// them), type and name first, then its arguments in two pieces, or when
// the stream is paced in four, a pause after each.
func (st *stream) toolCall(index int, id, name, args string) {
	st.send(choice(map[string]any{"tool_calls": []any{map[string]any{"index": index, "id": id, "type": "function",
		"function": map[string]any{"name": name, "arguments": ""}}}}, nil), nil)
	pieces := 2
	if st.pace > 0 {
		pieces = 4
		time.Sleep(st.pace)
	}
	for i := range pieces {
		piece := args[i*len(args)/pieces : (i+1)*len(args)/pieces]
		st.send(choice(map[string]any{"tool_calls": []any{map[string]any{"index": index,
			"function": map[string]any{"arguments": piece}}}}, nil), nil)
		if st.pace > 0 {
			time.Sleep(st.pace)
		}
	}
}

// modelList is the endpoint's model list, as long as a gateway's (a few
// hundred models), with the run's model among them.
var modelList = func() []byte {
	models := []any{map[string]any{"id": "perf-model", "object": "model", "created": 1764300000, "owned_by": "perf"}}
	for i := range 320 {
		models = append(models, map[string]any{"id": fmt.Sprintf("vendor%d/model-%d-instruct", i%40, i), "object": "model",
			"created": 1700000000 + i, "owned_by": fmt.Sprintf("vendor%d", i%40)})
	}
	b, _ := json.Marshal(map[string]any{"object": "list", "data": models})
	return b
}()
