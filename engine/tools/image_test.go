package tools

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
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
