package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// mediaType is a Content-Type without its parameters, lowercased; "" when
// the header is missing or unreadable.
func mediaType(header string) string {
	mt, _, err := mime.ParseMediaType(header)
	if err != nil {
		return strings.ToLower(strings.TrimSpace(strings.Split(header, ";")[0]))
	}
	return mt
}

// describeBody names a body that is not what was expected: its content
// type and first line, e.g. `text/html body: "<!DOCTYPE html>"`.
func describeBody(contentType, first string) string {
	if contentType == "" {
		contentType = "untyped"
	}
	if first == "" {
		return contentType + " body, empty"
	}
	return fmt.Sprintf("%s body: %q", contentType, first)
}

// notAStream is the error for a successful response whose body is not an
// event stream: a proxy's login page, a captive portal, a plain-text
// answer. It names the status, the content type and the first line.
func (m *streamMarker) notAStream() *ProviderError {
	return &ProviderError{
		Status:  m.status,
		Reason:  fmt.Sprintf("the endpoint answered %d but not with an event stream: check OPENAI_BASE_URL", m.status),
		Message: describeBody(m.contentType, m.firstLine),
		Err:     errNotAStream,
	}
}

// errNotAStream is the cause of notAStream's errors.
var errNotAStream = errors.New("response is not an event stream")

// annotate adds to a provider error what only the transport saw: the wait
// a Retry-After header asked for, and, for an error body that is not JSON
// (a proxy's HTML page), its content type and first line.
func (m *streamMarker) annotate(err error) error {
	var pe *ProviderError
	if !errors.As(err, &pe) || pe.Status != m.status || m.status == 0 {
		return err
	}
	if d, ok := ParseRetryAfter(m.retryAfter, time.Now()); ok {
		pe.RetryAfter = d
	}
	var re *openai.RequestError
	if errors.As(pe.Err, &re) {
		body := bytes.TrimSpace(re.Body)
		if len(body) > 0 && !json.Valid(body) {
			pe.Message = describeBody(m.contentType, firstLine(body))
		}
	}
	return err
}

// ParseRetryAfter reads a Retry-After header, in seconds or as an HTTP
// date, as the wait from now. A date in the past is no wait at all.
func ParseRetryAfter(header string, now time.Time) (time.Duration, bool) {
	header = strings.TrimSpace(header)
	if header == "" {
		return 0, false
	}
	if n, err := strconv.ParseInt(header, 10, 64); err == nil {
		if n < 0 {
			return 0, false
		}
		return time.Duration(min(n, int64(365*24*time.Hour/time.Second))) * time.Second, true
	}
	when, err := http.ParseTime(header)
	if err != nil {
		return 0, false
	}
	return max(when.Sub(now), 0), true
}

// formatBytes writes a size the way limits are read: "4 MiB", "64 KiB",
// or bytes when it is not a whole number of either.
func formatBytes(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
