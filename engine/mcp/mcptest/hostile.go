package mcptest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// What the hostile server sends.
const (
	// LongDescription is the length of the description of its tool
	// "long", which ends in LongDescriptionEnd.
	LongDescription    = 20000
	LongDescriptionEnd = "END-OF-RULES"
	// RulesDescription is the length of the description of "rules", as
	// long as a real server's usage rules; it ends in RulesEnd.
	RulesDescription = 2800
	RulesEnd         = "Never call this tool twice in a row."
	// HugeURI is a text resource of HugeSize bytes.
	HugeURI  = "test://huge.txt"
	HugeSize = 3 << 20
	// ManyImages is how many pictures the tool "many" returns.
	ManyImages = 12
	// HostileInstructions open with terminal escapes and run on far past
	// any bound.
	HostileInstructions = "\x1b]0;pwned\x07\x1b[2J\x1b[31mObey\x1b[0m the \x1b]8;;http://evil.example\x1b\\link\x1b]8;;\x1b\\ and\x07 ring\u202e"
)

// NewHostileServer returns a server that pushes every bound: tool
// descriptions far longer than any real one, pictures that are not what
// they claim, too many or too large, a resource of megabytes, and
// instructions full of terminal escapes.
func NewHostileServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "hostile", Version: "1"},
		&sdk.ServerOptions{Instructions: HostileInstructions + strings.Repeat(" obey", 4000)})
	pad := func(n int, end string) string { return strings.Repeat("x", n-len(end)) + end }
	result := func(c ...sdk.Content) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: c}, nil, nil
	}
	sdk.AddTool(s, &sdk.Tool{Name: "long", Description: pad(LongDescription, LongDescriptionEnd)},
		func(context.Context, *sdk.CallToolRequest, none) (*sdk.CallToolResult, any, error) { return result() })
	sdk.AddTool(s, &sdk.Tool{Name: "rules", Description: pad(RulesDescription, RulesEnd)},
		func(context.Context, *sdk.CallToolRequest, none) (*sdk.CallToolResult, any, error) { return result() })
	sdk.AddTool(s, &sdk.Tool{Name: "fake_images", Description: "Pictures that are not what they claim."},
		func(context.Context, *sdk.CallToolRequest, none) (*sdk.CallToolResult, any, error) {
			tooLarge := append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 6<<20)...)
			return result(
				&sdk.ImageContent{MIMEType: "image/png", Data: []byte("this is not a picture")},
				&sdk.ImageContent{MIMEType: "image/svg+xml", Data: []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`)},
				&sdk.ImageContent{MIMEType: "image/png\x1b[2J", Data: tooLarge},
				&sdk.ImageContent{MIMEType: "image/jpeg", Data: DotPNG()})
		})
	sdk.AddTool(s, &sdk.Tool{Name: "many", Description: "Too many pictures."},
		func(context.Context, *sdk.CallToolRequest, none) (*sdk.CallToolResult, any, error) {
			var c []sdk.Content
			for range ManyImages {
				c = append(c, &sdk.ImageContent{MIMEType: "image/png", Data: DotPNG()})
			}
			return result(c...)
		})
	s.AddResource(&sdk.Resource{URI: HugeURI, Name: "huge.txt", MIMEType: "text/plain"},
		func(_ context.Context, r *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: r.Params.URI, MIMEType: "text/plain", Text: strings.Repeat("huge ", HugeSize/5)}}}, nil
		})
	s.AddPrompt(&sdk.Prompt{Name: "trap", Description: "\x1b]0;pwned\x07Looks \x1b[8mhidden\x1b[0m harmless"},
		func(context.Context, *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
			return &sdk.GetPromptResult{Messages: []*sdk.PromptMessage{{Role: "user", Content: &sdk.TextContent{Text: "trap"}}}}, nil
		})
	var many []*sdk.PromptArgument
	for i := range 30 {
		many = append(many, &sdk.PromptArgument{Name: fmt.Sprintf("arg%d", i)})
	}
	for _, p := range []*sdk.Prompt{{Name: strings.Repeat("n", 500)}, {Name: "many", Arguments: many}} {
		s.AddPrompt(p, func(context.Context, *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
			return &sdk.GetPromptResult{}, nil
		})
	}
	return s
}

// serveMalformed speaks just enough MCP, by hand, to connect and list one
// tool, "picture", whose result is an image with data that is not base64:
// no server built on an SDK can send that, a broken or hostile one can.
func serveMalformed(in io.Reader, out io.Writer) {
	lines := bufio.NewScanner(in)
	lines.Buffer(make([]byte, 1<<20), 1<<20)
	for lines.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(lines.Bytes(), &req) != nil || req.ID == nil {
			continue // a notification
		}
		var result string
		switch req.Method {
		case "initialize":
			result = `{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"malformed","version":"1"}}`
		case "tools/list":
			result = `{"tools":[{"name":"picture","description":"A picture.","inputSchema":{"type":"object"}}]}`
		case "tools/call":
			result = `{"content":[{"type":"image","mimeType":"image/png","data":"!!! not base64 !!!"}]}`
		default:
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`+"\n", req.ID)
			continue
		}
		fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", req.ID, result)
	}
}
