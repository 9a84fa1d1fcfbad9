package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"slices"
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
	// think is how long the model thinks before it writes a
	// delegation: the reply's headers go out at once, its first byte
	// after (0: at once).
	think time.Duration
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
		if sc.think > 0 {
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			time.Sleep(sc.think)
		}
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
