package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
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
}

// server is a scripted OpenAI-compatible endpoint on loopback. It notes
// when it sent each run's first token, so time to first byte can be
// measured against the socket rather than the process start.
type server struct {
	srv *http.Server
	url string

	mu         sync.Mutex
	script     script
	firstToken time.Time
	// mainDone counts the main agent's finished answers in this case.
	mainDone int
	// mainSpans and childSpans are how long each request of the run took
	// the server, from its arrival to its last byte; fanOutEnd is when
	// the message asking for the children ended and childStarts when
	// their requests arrived.
	mainSpans, childSpans []time.Duration
	fanOutEnd             time.Time
	childStarts           []time.Time
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

// use sets the script for the next runs and forgets the last first token.
func (s *server) use(sc script) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script, s.firstToken, s.mainDone = sc, time.Time{}, 0
	s.mainSpans, s.childSpans, s.fanOutEnd, s.childStarts = nil, nil, time.Time{}, nil
}

// criticalPath is the run's own time on the server: its main requests one
// after the other, plus the longest child (children run side by side).
// Whatever the wall time adds to it is baton's.
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
// request arrived; negative when the run had no children.
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

// answered reports whether the main agent's answer has been sent whole.
func (s *server) answered() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mainDone > 0
}

// firstTokenAt is when the current run's first token was written.
func (s *server) firstTokenAt() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.firstToken
}

// request is the part of a chat request the script looks at.
type request struct {
	Messages []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
}

func (s *server) handle(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"object":"list","data":[{"id":"perf-model","object":"model"}]}`)
		return
	}
	arrived := time.Now()
	var req request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	sc := s.script
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	isChild := len(req.Messages) > 0 && strings.Contains(req.Messages[0].Content, "sub-agent")
	answered := req.Messages[len(req.Messages)-1].Role == "tool"
	if isChild {
		s.mu.Lock()
		s.childStarts = append(s.childStarts, arrived)
		s.mu.Unlock()
	}
	defer func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if isChild {
			s.childSpans = append(s.childSpans, time.Since(arrived))
		} else {
			s.mainSpans = append(s.mainSpans, time.Since(arrived))
		}
	}()
	if sc.children > 0 && !isChild && !answered {
		s.delegate(w, sc.children)
		s.mu.Lock()
		s.fanOutEnd = time.Now()
		s.mu.Unlock()
		return
	}
	if s.answer(w, r, sc) && !isChild {
		s.mu.Lock()
		s.mainDone++
		s.mu.Unlock()
	}
}

// delegate asks for n explore children in one message.
func (s *server) delegate(w http.ResponseWriter, n int) {
	calls := make([]map[string]any, n)
	for i := range calls {
		args := fmt.Sprintf(`{"description":"part %d","prompt":"Describe part %d.","subagent_type":"explore"}`, i+1, i+1)
		calls[i] = map[string]any{"index": i, "id": fmt.Sprintf("call_%d", i), "type": "function",
			"function": map[string]any{"name": "task", "arguments": args}}
	}
	send(w, map[string]any{"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"tool_calls": calls}}}})
	send(w, map[string]any{"choices": []any{map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": "tool_calls"}}})
	done(w)
}

// answer streams sc.words words, paced, then the usage and [DONE]. It
// reports whether the whole answer was sent.
func (s *server) answer(w http.ResponseWriter, r *http.Request, sc script) bool {
	for i := range sc.words {
		word := fmt.Sprintf("word%d ", i)
		send(w, map[string]any{"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"content": word}}}})
		if i == 0 {
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
	send(w, map[string]any{"choices": []any{map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": "stop"}}})
	done(w)
	return true
}

// send writes one SSE data line and flushes it.
func send(w http.ResponseWriter, v any) {
	b, _ := json.Marshal(v)
	fmt.Fprintf(w, "data: %s\n\n", b)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// done ends a stream with usage and [DONE].
func done(w http.ResponseWriter) {
	send(w, map[string]any{"choices": []any{}, "usage": map[string]any{"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}})
	fmt.Fprint(w, "data: [DONE]\n\n")
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}
