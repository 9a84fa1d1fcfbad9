package llm

import (
	"context"
	"errors"
	"fmt"
	"net"
	"time"
)

// Timeouts bound how long a request may wait on the endpoint. A hung
// endpoint is otherwise waited on forever: the person sees a spinner and
// nothing else. Zero fields take DefaultTimeouts; values above MaxTimeouts
// are lowered to it.
type Timeouts struct {
	// Connect bounds opening the connection (connect_timeout_s).
	Connect time.Duration
	// FirstByte bounds the wait from sending the request to the first
	// reply data (first_byte_timeout_s). Headers and keep-alives do not
	// end it: servers such as llama.cpp send headers at once and then
	// read the prompt for minutes, so it is long for slow local models.
	FirstByte time.Duration
	// Idle bounds the gap between two pieces of reply data once the reply
	// has begun (idle_timeout_s). Keep-alive comments, blank lines and
	// data events that add nothing do not count as progress: a server can
	// send them forever.
	Idle time.Duration
}

// DefaultTimeouts are used where Timeouts leaves zeros.
var DefaultTimeouts = Timeouts{Connect: 10 * time.Second, FirstByte: 300 * time.Second, Idle: 120 * time.Second}

// MaxTimeouts are the hard maxima no configuration exceeds.
var MaxTimeouts = Timeouts{Connect: 5 * time.Minute, FirstByte: time.Hour, Idle: time.Hour}

// withDefaults fills zeros and lowers values above the maxima.
func (t Timeouts) withDefaults() Timeouts {
	pick := func(v, def, limit time.Duration) time.Duration {
		if v <= 0 {
			return def
		}
		return min(v, limit)
	}
	return Timeouts{
		Connect:   pick(t.Connect, DefaultTimeouts.Connect, MaxTimeouts.Connect),
		FirstByte: pick(t.FirstByte, DefaultTimeouts.FirstByte, MaxTimeouts.FirstByte),
		Idle:      pick(t.Idle, DefaultTimeouts.Idle, MaxTimeouts.Idle),
	}
}

// The settings a TimeoutError names, as the person writes them in the
// [network] table.
const (
	SettingConnect   = "connect_timeout_s"
	SettingFirstByte = "first_byte_timeout_s"
	SettingIdle      = "idle_timeout_s"
)

// TimeoutError says the endpoint stayed silent for longer than a [network]
// setting allows. It is worth retrying: the next request may find a
// healthy server.
type TimeoutError struct {
	Setting string // SettingConnect, SettingFirstByte or SettingIdle
	Limit   time.Duration
	Err     error // the dial error for SettingConnect, else nil
}

// Error names the wait and the setting that bounds it, e.g. "no data from
// the endpoint for 120 s (idle_timeout_s)".
func (e *TimeoutError) Error() string {
	var what string
	switch e.Setting {
	case SettingConnect:
		what = "could not connect to the endpoint within"
	case SettingFirstByte:
		what = "no reply from the endpoint within"
	default:
		what = "no data from the endpoint for"
	}
	return fmt.Sprintf("%s %s (%s)", what, FormatSeconds(e.Limit), e.Setting)
}

// Unwrap returns the dial error, if any.
func (e *TimeoutError) Unwrap() error { return e.Err }

// Timeout marks the error as a timeout for net.Error-style checks.
func (e *TimeoutError) Timeout() bool { return true }

// FormatSeconds writes a duration the way the settings are written: whole
// seconds as "120 s", anything finer (tests use milliseconds) as Go does.
func FormatSeconds(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%d s", d/time.Second)
	}
	return d.String()
}

// dialFunc is the shape of net.Dialer.DialContext.
type dialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

// boundedDial runs dial under the connect timeout and reports running out
// of it as a *TimeoutError naming connect_timeout_s. The caller's own
// cancellation passes through unchanged.
func boundedDial(limit time.Duration, dial dialFunc) dialFunc {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		expired := errors.New("connect timeout")
		dctx, cancel := context.WithTimeoutCause(ctx, limit, expired)
		defer cancel()
		conn, err := dial(dctx, network, addr)
		if err != nil && ctx.Err() == nil && errors.Is(context.Cause(dctx), expired) {
			return nil, &TimeoutError{Setting: SettingConnect, Limit: limit, Err: err}
		}
		return conn, err
	}
}
