package llm

import (
	"context"
	"errors"
	"io"
)

// timeoutCause returns the watchdog's timeout when it is what ended the
// request, and err otherwise.
func timeoutCause(ctx context.Context, err error) error {
	var te *TimeoutError
	if errors.As(context.Cause(ctx), &te) {
		return te
	}
	return err
}

// otherBodyMax bounds the body of a request Stream did not send: a model
// list of a few thousand entries is well under it, an endless one is not.
const otherBodyMax = 16 << 20

// cappedBody fails a read past its cap instead of filling memory.
type cappedBody struct {
	rc   io.ReadCloser
	left int
}

// Read implements io.Reader.
func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, errors.New("the endpoint sent a body of more than " + formatBytes(otherBodyMax))
	}
	n, err := b.rc.Read(p[:min(len(p), b.left)])
	b.left -= n
	return n, err
}

// Close implements io.Closer.
func (b *cappedBody) Close() error { return b.rc.Close() }

// errorBody is an error response body cut at errorBodyMax.
type errorBody struct {
	rc      io.ReadCloser
	r       io.Reader
	ctx     context.Context
	release func()
}

// Read implements io.Reader; the request is released at the end of the
// body, since go-openai reads an error body whole but never closes it.
func (b *errorBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err != nil {
		err = timeoutCause(b.ctx, err)
		b.release()
	}
	return n, err
}

// Close implements io.Closer.
func (b *errorBody) Close() error {
	b.release()
	return b.rc.Close()
}
