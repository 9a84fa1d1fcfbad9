package config

import (
	"time"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/llm"
)

// networkFile is the [network] table: how long baton waits on the
// endpoint before calling it hung, and the longest Retry-After it honours.
type networkFile struct {
	ConnectTimeoutS   *count `toml:"connect_timeout_s"`
	FirstByteTimeoutS *count `toml:"first_byte_timeout_s"`
	IdleTimeoutS      *count `toml:"idle_timeout_s"`
	RetryAfterMaxS    *count `toml:"retry_after_max_s"`
}

// Network is the merged [network] table; zero fields take the defaults of
// llm.DefaultTimeouts and engine.DefaultRetryAfterMax.
type Network struct {
	Timeouts      llm.Timeouts
	RetryAfterMax time.Duration
}

// applyNetwork layers the [network] table.
func (c *Config) applyNetwork(n networkFile) {
	setSeconds(&c.Network.Timeouts.Connect, n.ConnectTimeoutS)
	setSeconds(&c.Network.Timeouts.FirstByte, n.FirstByteTimeoutS)
	setSeconds(&c.Network.Timeouts.Idle, n.IdleTimeoutS)
	setSeconds(&c.Network.RetryAfterMax, n.RetryAfterMaxS)
}

// setSeconds copies a number of seconds the file set.
func setSeconds(dst *time.Duration, v *count) {
	if v != nil {
		*dst = seconds(*v)
	}
}

// networkMaxima are the hard maxima of the [network] keys, in seconds.
func networkMaxima(n *networkFile) []bounded {
	return []bounded{
		{"network.connect_timeout_s", &n.ConnectTimeoutS, inSeconds(llm.MaxTimeouts.Connect)},
		{"network.first_byte_timeout_s", &n.FirstByteTimeoutS, inSeconds(llm.MaxTimeouts.FirstByte)},
		{"network.idle_timeout_s", &n.IdleTimeoutS, inSeconds(llm.MaxTimeouts.Idle)},
		{"network.retry_after_max_s", &n.RetryAfterMaxS, inSeconds(engine.MaxRetryAfter)},
	}
}
