package mcptest

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Instructions are what NewServer asks the model to know.
const Instructions = "Call echo before any other tool of this server."

// The resources NewServer offers.
const (
	// NoteURI is a text resource holding NoteText.
	NoteURI  = "test://notes/hello.txt"
	NoteText = "hello from a resource"
	// DotURI is a PNG picture, DotPNG.
	DotURI = "test://pictures/dot.png"
	// NoteTemplate makes a note of any name: test://notes/{name}.
	NoteTemplate = "test://notes/{name}"
)

// DotPNG is a real 2×2 PNG picture, red.
func DotPNG() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	for x := range 2 {
		for y := range 2 {
			img.Set(x, y, color.RGBA{R: 255, A: 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err) // encoding a tiny picture in memory cannot fail
	}
	return b.Bytes()
}

// addFeatures gives s the resources, prompts and the roots tool.
func addFeatures(s *sdk.Server) {
	s.AddResource(&sdk.Resource{URI: NoteURI, Name: "hello.txt", MIMEType: "text/plain", Description: "A short note."},
		func(_ context.Context, r *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: r.Params.URI, MIMEType: "text/plain", Text: NoteText}}}, nil
		})
	s.AddResource(&sdk.Resource{URI: DotURI, Name: "dot.png", MIMEType: "image/png", Description: "A red dot."},
		func(_ context.Context, r *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: r.Params.URI, MIMEType: "image/png", Blob: DotPNG()}}}, nil
		})
	s.AddResourceTemplate(&sdk.ResourceTemplate{URITemplate: NoteTemplate, Name: "note", MIMEType: "text/plain", Description: "A note of any name."},
		func(_ context.Context, r *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			name := strings.TrimPrefix(r.Params.URI, "test://notes/")
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: r.Params.URI, MIMEType: "text/plain", Text: "a note called " + name}}}, nil
		})
	s.AddPrompt(&sdk.Prompt{Name: "greet", Description: "Write a greeting for a city.", Arguments: []*sdk.PromptArgument{
		{Name: "city", Description: "the city to greet", Required: true}, {Name: "style", Description: "how to say it"}}},
		func(_ context.Context, r *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
			style := r.Params.Arguments["style"]
			if style == "" {
				style = "plain"
			}
			text := fmt.Sprintf("Write a %s greeting for %s.", style, r.Params.Arguments["city"])
			return &sdk.GetPromptResult{Messages: []*sdk.PromptMessage{{Role: "user", Content: &sdk.TextContent{Text: text}}}}, nil
		})
	s.AddPrompt(&sdk.Prompt{Name: "show dot", Description: "Look at a picture and a note."},
		func(context.Context, *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
			return &sdk.GetPromptResult{Messages: []*sdk.PromptMessage{
				{Role: "user", Content: &sdk.TextContent{Text: "What colour is this dot?"}},
				{Role: "user", Content: &sdk.ImageContent{MIMEType: "image/png", Data: DotPNG()}},
				{Role: "assistant", Content: &sdk.TextContent{Text: "Let me look."}},
				{Role: "user", Content: &sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: NoteURI, MIMEType: "text/plain", Text: NoteText}}},
			}}, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "roots", Description: "Reports the roots the client gave, one URI and name a line."},
		func(_ context.Context, r *sdk.CallToolRequest, _ none) (*sdk.CallToolResult, any, error) {
			// Asked for as an input request, which the SDK turns into a
			// roots/list call for clients of older protocols.
			//lint:ignore SA1019 roots are what this test server checks baton still answers
			res, ok := r.Params.InputResponses["roots"].(*sdk.ListRootsResult)
			if !ok {
				//lint:ignore SA1019 roots are what this test server checks baton still answers
				return &sdk.CallToolResult{InputRequests: sdk.InputRequestMap{"roots": &sdk.ListRootsParams{}}}, nil, nil
			}
			var lines []string
			for _, root := range res.Roots {
				lines = append(lines, root.URI+" "+root.Name)
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: strings.Join(lines, "\n")}}}, nil, nil
		})
}
