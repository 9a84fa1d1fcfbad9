package llm

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"
)

// blockingDial never connects; it returns when its context ends, as a
// dial to an address that drops SYNs does.
func blockingDial(ctx context.Context, _, _ string) (net.Conn, error) {
	<-ctx.Done()
	return nil, &net.OpError{Op: "dial", Net: "tcp", Err: ctx.Err()}
}

func TestConnectTimeout(t *testing.T) {
	_, err := boundedDial(20*time.Millisecond, blockingDial)(context.Background(), "tcp", "192.0.2.1:443")
	var te *TimeoutError
	if !errors.As(err, &te) || te.Setting != SettingConnect {
		t.Fatalf("error = %#v, want a timeout naming %s", err, SettingConnect)
	}
	if want := "could not connect to the endpoint within 20ms (connect_timeout_s)"; err.Error() != want {
		t.Errorf("message = %q, want %q", err, want)
	}
}

// The caller's own cancellation is not a timeout.
func TestConnectCancelIsNotATimeout(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := boundedDial(time.Hour, blockingDial)(ctx, "tcp", "192.0.2.1:443")
	var te *TimeoutError
	if errors.As(err, &te) || !errors.Is(err, context.Canceled) {
		t.Fatalf("error = %#v, want the cancellation itself", err)
	}
}

func TestTimeoutsClampAndDefault(t *testing.T) {
	got := Timeouts{Connect: 2 * time.Hour, Idle: time.Second}.withDefaults()
	want := Timeouts{Connect: MaxTimeouts.Connect, FirstByte: DefaultTimeouts.FirstByte, Idle: time.Second}
	if got != want {
		t.Errorf("withDefaults = %+v, want %+v", got, want)
	}
	if s := (&TimeoutError{Setting: SettingIdle, Limit: 120 * time.Second}).Error(); s != "no data from the endpoint for 120 s (idle_timeout_s)" {
		t.Errorf("idle message = %q", s)
	}
}
