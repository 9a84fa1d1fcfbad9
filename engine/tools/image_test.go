package tools

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImagesFromServersAreChecked: a picture from an MCP server is
// passed on only when its bytes really are an image a provider takes,
// whatever type the server claimed, and small enough; it goes as a data
// URL and is named for a model that cannot see it.
func TestImagesFromServersAreChecked(t *testing.T) {
	var b bytes.Buffer
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.White)
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	pic, err := NewImage(b.Bytes())
	if err != nil || pic.MIMEType != "image/png" {
		t.Fatalf("a PNG: %+v, %v", pic.MIMEType, err)
	}
	url := pic.DataURL()
	data, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(url, "data:image/png;base64,"))
	if err != nil || !bytes.Equal(data, b.Bytes()) {
		t.Errorf("the data URL %.40q… does not carry the image: %v", url, err)
	}
	if got, want := pic.Placeholder(), "[image: image/png, "; !strings.HasPrefix(got, want) {
		t.Errorf("Placeholder = %q", got)
	}
	for name, data := range map[string][]byte{
		"html claiming to be an image": []byte("<html><script>alert(1)</script></html>"),
		"an SVG":                       []byte(`<svg xmlns="http://www.w3.org/2000/svg"></svg>`),
		"too large":                    append(append([]byte(nil), b.Bytes()...), make([]byte, MaxImageBytes)...),
	} {
		if _, err := NewImage(data); err == nil {
			t.Errorf("%s was taken as an image", name)
		}
	}
}

// TestCallRefTravelsWithTheCall: the call a tool runs for is read back
// from its context, and a context without one says so.
func TestCallRefTravelsWithTheCall(t *testing.T) {
	ref := CallRef{Agent: "child-2", ID: "call_7"}
	if got, ok := CallRefOf(WithCallRef(context.Background(), ref)); !ok || got != ref {
		t.Errorf("CallRefOf = %+v, %v", got, ok)
	}
	if _, ok := CallRefOf(context.Background()); ok {
		t.Error("a context without a call names one")
	}
}

// TestSharedLocksHoldAcrossWorkspaces: a workspace whose locks are
// another's (a child process working for the parent baton) waits on that
// lock table: while the parent holds a file, the child's write does not
// happen, and gives up when its context ends.
func TestSharedLocksHoldAcrossWorkspaces(t *testing.T) {
	parent := newTree(t, map[string]string{"a.txt": "parent\n"})
	child, err := NewWorkspace(parent.Root())
	if err != nil {
		t.Fatal(err)
	}
	child.ShareLocks(parent)
	path := filepath.Join(parent.Root(), "a.txt")
	unlock, err := parent.Lock(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	err = child.Update(ended, path, func([]byte, bool) (FileUpdate, error) { return FileUpdate{Data: []byte("child\n")}, nil })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("a write while the parent holds the file: %v", err)
	}
	unlock()
	err = child.Update(context.Background(), path, func([]byte, bool) (FileUpdate, error) { return FileUpdate{Data: []byte("child\n")}, nil })
	if data, _ := os.ReadFile(path); err != nil || string(data) != "child\n" {
		t.Errorf("after the parent let go: %q, %v", data, err)
	}
}
