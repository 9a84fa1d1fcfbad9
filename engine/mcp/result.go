package mcp

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-e4e525a6/baton/engine/tools"
)

// maxImagesPerResult bounds the pictures one result hands the model.
const maxImagesPerResult = 8

// rendering is content made ready for the model: text, with a
// placeholder for each picture, and the pictures that passed the checks
// (a model that takes images gets those too).
type rendering struct {
	parts  []string
	images []tools.Image
}

// result is the rendering as a tool result.
func (r *rendering) result() tools.Result {
	text := strings.Join(r.parts, "\n")
	return tools.Result{Output: text, Summary: summary(text), Images: r.images}
}

// renderResult renders a call's content: text as it is, pictures checked
// and named by a placeholder, other binary content as a note of its type
// and size (the model cannot read base64 usefully, and it would crowd out
// everything else), and the structured result when there is no content.
func renderResult(res *sdk.CallToolResult) *rendering {
	r := &rendering{}
	for _, c := range res.Content {
		r.content(c)
	}
	if len(r.parts) == 0 && res.StructuredContent != nil {
		if data, err := json.Marshal(res.StructuredContent); err == nil {
			r.parts = append(r.parts, string(data))
		}
	}
	return r
}

// content renders one content block.
func (r *rendering) content(c sdk.Content) {
	switch c := c.(type) {
	case *sdk.TextContent:
		r.parts = append(r.parts, c.Text)
	case *sdk.ImageContent:
		r.image(c.MIMEType, c.Data)
	case *sdk.AudioContent:
		r.parts = append(r.parts, fmt.Sprintf("[audio: %s, %d bytes; not shown]", shortType(c.MIMEType), len(c.Data)))
	case *sdk.ResourceLink:
		r.parts = append(r.parts, fmt.Sprintf("[resource link: %s %s]", c.URI, c.Name))
	case *sdk.EmbeddedResource:
		if c.Resource == nil {
			r.parts = append(r.parts, "[resource]")
			return
		}
		r.resource(c.Resource, true)
	default:
		r.parts = append(r.parts, fmt.Sprintf("[%T content]", c))
	}
}

// resource renders a resource's contents: text under a line naming it
// when headed, a picture like any other, and other binary data as a note.
func (r *rendering) resource(rc *sdk.ResourceContents, headed bool) {
	switch {
	case rc.Blob != nil && strings.HasPrefix(rc.MIMEType, "image/"):
		r.image(rc.MIMEType, rc.Blob)
	case rc.Blob != nil && textual(rc.MIMEType) && utf8.Valid(rc.Blob):
		text := *rc
		text.Text, text.Blob = string(rc.Blob), nil
		r.resource(&text, headed)
	case rc.Blob != nil:
		r.parts = append(r.parts, fmt.Sprintf("[resource %s: %s, %d bytes of binary data; not shown]", rc.URI, shortType(rc.MIMEType), len(rc.Blob)))
	case headed:
		r.parts = append(r.parts, fmt.Sprintf("[resource %s]\n%s", rc.URI, rc.Text))
	default:
		r.parts = append(r.parts, rc.Text)
	}
}

// textual reports whether a MIME type names text, which a server may
// still send base64-encoded.
func textual(mime string) bool {
	mime, _, _ = strings.Cut(mime, ";")
	return strings.HasPrefix(mime, "text/") || strings.HasSuffix(mime, "json") || strings.HasSuffix(mime, "xml") || strings.HasSuffix(mime, "yaml")
}

// image keeps a picture that really is one of the formats models take,
// small enough, and within the count; anything else is only named, with
// the reason it is not shown.
func (r *rendering) image(claimed string, data []byte) {
	img, err := tools.NewImage(data)
	switch {
	case err != nil:
		r.parts = append(r.parts, fmt.Sprintf("[image: %s, %d bytes; not shown: %v]", shortType(claimed), len(data), err))
	case len(r.images) == maxImagesPerResult:
		r.parts = append(r.parts, fmt.Sprintf("[image: %s, %d bytes; not shown: more than %d images in one result]", img.MIMEType, len(data), maxImagesPerResult))
	default:
		r.images = append(r.images, img)
		r.parts = append(r.parts, img.Placeholder())
	}
}

// shortType bounds a MIME type a server wrote, for a placeholder.
func shortType(mime string) string {
	mime = strings.Join(strings.Fields(mime), " ")
	if mime == "" {
		return "unknown type"
	}
	if utf8.RuneCountInString(mime) > 60 {
		return string([]rune(mime)[:60]) + "…"
	}
	return mime
}

// summary is the short note people see for a result: its line count.
func summary(text string) string {
	n := strings.Count(strings.TrimRight(text, "\n"), "\n") + 1
	if strings.TrimSpace(text) == "" {
		return "no output"
	}
	if n == 1 {
		return "1 line"
	}
	return fmt.Sprintf("%d lines", n)
}
