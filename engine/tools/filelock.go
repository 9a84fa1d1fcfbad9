package tools

import (
	"context"
	"encoding/json"
	"sync"
)

// Serial is a tool whose calls on one file must not overlap. The engine
// takes the lock before it builds the preview an approval card shows and
// keeps it until the write is done, so the diff a person approves is the
// diff written, and two agents editing one file never work on a stale
// copy. Run takes the lock itself when its context does not hold it.
type Serial interface {
	// Lock waits for the file args name (or until ctx ends) and returns a
	// context that holds it, for Preview and Run, and the unlock.
	Lock(ctx context.Context, args json.RawMessage) (context.Context, func(), error)
}

// Locker holds files for writers, one writer per file at a time.
type Locker interface {
	// Lock waits until path (absolute, resolved) is free or ctx ends,
	// and holds it until unlock is called.
	Lock(ctx context.Context, path string) (unlock func(), err error)
}

// fileLocks is one lock per resolved path. A waiter selects on its
// context, so a cancelled agent never hangs behind another's approval.
type fileLocks struct {
	// shared, when set, holds the files instead: the lock table of the
	// baton process this one works for.
	shared Locker

	mu   sync.Mutex
	held map[string]chan struct{} // closed when its path is unlocked
}

// heldKey marks, in a context, the path whose lock the caller holds.
type heldKey struct{}

// lock waits until path is free or ctx ends.
func (l *fileLocks) lock(ctx context.Context, path string) (context.Context, func(), error) {
	if held, _ := ctx.Value(heldKey{}).(string); held == path {
		return ctx, func() {}, nil
	}
	if l.shared != nil {
		unlock, err := l.shared.Lock(ctx, path)
		if err != nil {
			return ctx, nil, err
		}
		return context.WithValue(ctx, heldKey{}, path), unlock, nil
	}
	for {
		l.mu.Lock()
		busy, ok := l.held[path]
		if !ok {
			if l.held == nil {
				l.held = map[string]chan struct{}{}
			}
			free := make(chan struct{})
			l.held[path] = free
			l.mu.Unlock()
			var once sync.Once
			unlock := func() {
				once.Do(func() {
					l.mu.Lock()
					delete(l.held, path)
					l.mu.Unlock()
					close(free)
				})
			}
			return context.WithValue(ctx, heldKey{}, path), unlock, nil
		}
		l.mu.Unlock()
		select {
		case <-busy:
		case <-ctx.Done():
			return ctx, nil, ctx.Err()
		}
	}
}

// lockArgs locks the file a write_file or edit_file call names. A path
// that does not resolve locks nothing: the call fails on it anyway.
func lockArgs(ctx context.Context, ws *Workspace, args json.RawMessage) (context.Context, func(), error) {
	var a struct {
		Path string `json:"path"`
	}
	if json.Unmarshal(args, &a) != nil {
		return ctx, func() {}, nil
	}
	abs, err := ws.ResolveForWrite(a.Path)
	if err != nil {
		return ctx, func() {}, nil
	}
	return ws.files.lock(ctx, abs)
}

// Lock implements Locker with the workspace's own lock table: what the
// writers of a child placed in another process wait on, with everyone
// else's.
func (w *Workspace) Lock(ctx context.Context, path string) (func(), error) {
	_, unlock, err := w.files.lock(ctx, path)
	return unlock, err
}
