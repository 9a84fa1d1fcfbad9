package tools

import (
	"encoding/base64"
	"fmt"
	"net/http"
)

// MaxImageBytes bounds one image handed to a model: providers refuse
// larger ones (Anthropic at 5 MB), and each one rides along in every
// later request of the conversation.
const MaxImageBytes = 5 << 20

// imageTypes are the formats every provider that takes images accepts.
var imageTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

// Image is a picture a tool returned, checked by NewImage: its bytes are
// a PNG, JPEG, GIF or WebP image of at most MaxImageBytes.
type Image struct {
	// MIMEType is the type the bytes really have, whatever the source
	// claimed.
	MIMEType string
	Data     []byte
}

// NewImage checks a picture from an untrusted source (an MCP server): the
// bytes must really be an image of a type providers accept, and small
// enough. The error says why not, for the placeholder the model gets
// instead.
func NewImage(data []byte) (Image, error) {
	if len(data) > MaxImageBytes {
		return Image{}, fmt.Errorf("larger than the %d MiB a model takes", MaxImageBytes>>20)
	}
	sniffed := http.DetectContentType(data)
	if !imageTypes[sniffed] {
		return Image{}, fmt.Errorf("not a PNG, JPEG, GIF or WebP image")
	}
	return Image{MIMEType: sniffed, Data: data}, nil
}

// DataURL is the image as the data: URL chat completions take.
func (i Image) DataURL() string {
	return "data:" + i.MIMEType + ";base64," + base64.StdEncoding.EncodeToString(i.Data)
}

// Placeholder names the image for a model that cannot see it, and for
// people.
func (i Image) Placeholder() string {
	return fmt.Sprintf("[image: %s, %d bytes]", i.MIMEType, len(i.Data))
}
