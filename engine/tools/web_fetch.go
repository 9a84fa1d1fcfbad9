package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2"
	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
)

func init() {
	register("web_fetch", func(b build) (Tool, bool) {
		if b.fetch == nil {
			return nil, false
		}
		return NewWebFetch(*b.fetch, b.lim), true
	})
}

// Bounds of one fetch: the body read is capped before any conversion, and
// the whole call (redirects included) has one deadline.
const (
	maxFetchBytes = 5 << 20
	fetchTimeout  = 30 * time.Second
)

// WebFetchOptions configure web_fetch; only the person's own config may
// set them, never a repository's.
type WebFetchOptions struct {
	// AllowPrivate lets web_fetch reach loopback, private and link-local
	// addresses (a local docs server); off, they are refused at dial time.
	AllowPrivate bool
}

// webFetch is the web_fetch tool: GET one URL and return it as readable
// text. It reaches the network, so it is not read-only and asks first.
type webFetch struct {
	guard fetchGuard
	lim   Limits
}

// NewWebFetch returns web_fetch with its options and output limits.
func NewWebFetch(opts WebFetchOptions, lim Limits) Tool {
	return webFetch{guard: fetchGuard{allowPrivate: opts.AllowPrivate}, lim: lim.withDefaults()}
}

type webFetchArgs struct {
	URL    string `json:"url"`
	Prompt string `json:"prompt"`
	Format string `json:"format"`
}

func (webFetch) Name() string   { return "web_fetch" }
func (webFetch) ReadOnly() bool { return false }

func (webFetch) Description() string {
	return "Fetch a web page or file over http(s) with GET and return it as text: HTML is converted to Markdown (format \"markdown\", the default), " +
		"or returned as plain text (\"text\") or raw (\"html\"). Large pages are cut. Local and private network addresses are refused. " +
		"prompt, if given, is echoed above the content as a reminder of what to look for."
}

func (webFetch) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","required":["url"],"properties":{` +
		`"url":{"type":"string","description":"the http:// or https:// URL to fetch"},` +
		`"prompt":{"type":"string","description":"what you want from the page (echoed, not processed)"},` +
		`"format":{"type":"string","enum":["markdown","text","html"],"description":"how to return HTML (default markdown)"}}}`)
}

func (t webFetch) Title(args json.RawMessage) string {
	var a webFetchArgs
	if json.Unmarshal(args, &a) != nil {
		return t.Name()
	}
	return title(t.Name(), a.URL)
}

// Preview shows what the person approves: the one request made.
func (t webFetch) Preview(_ context.Context, args json.RawMessage) (string, error) {
	a, err := t.parse(args)
	if err != nil {
		return "", err
	}
	return "GET " + a.URL, nil
}

// parse checks the arguments.
func (t webFetch) parse(args json.RawMessage) (webFetchArgs, error) {
	var a webFetchArgs
	if err := decodeArgs(t.Name(), args, &a, "url"); err != nil {
		return a, err
	}
	a.URL = strings.TrimSpace(a.URL)
	a.Format = strings.ToLower(strings.TrimSpace(a.Format))
	switch a.Format {
	case "":
		a.Format = "markdown"
	case "markdown", "text", "html":
	default:
		return a, fmt.Errorf("web_fetch: format %q; use markdown, text or html", a.Format)
	}
	return a, checkFetchURL(a.URL)
}

// checkFetchURL accepts absolute http(s) URLs without credentials; it is
// applied to every redirect too.
func checkFetchURL(raw string) error {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return fmt.Errorf("web_fetch: bad URL %q: %w", raw, err)
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("web_fetch: only http and https URLs are fetched, not %q", raw)
	case u.Host == "" || u.Hostname() == "":
		return fmt.Errorf("web_fetch: URL %q has no host", raw)
	case u.User != nil:
		return errors.New("web_fetch: URLs with a user name or password are not fetched")
	}
	return nil
}

// Run fetches the URL and returns its text, cut to the output limit.
func (t webFetch) Run(ctx context.Context, args json.RawMessage) (Result, error) {
	a, err := t.parse(args)
	if err != nil {
		return Result{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.URL, nil)
	if err != nil {
		return Result{}, fmt.Errorf("web_fetch: %w", err)
	}
	req.Header.Set("User-Agent", "Mozilla/5.0 (compatible; baton web_fetch)")
	req.Header.Set("Accept", "text/html,application/xhtml+xml,text/markdown;q=0.9,text/plain;q=0.8,*/*;q=0.5")
	resp, err := t.guard.client().Do(req)
	if err != nil {
		return Result{}, fetchError(ctx, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxFetchBytes+1))
	if err != nil {
		return Result{}, fetchError(ctx, err)
	}
	cut := len(body) > maxFetchBytes
	body = body[:min(len(body), maxFetchBytes)]
	final := resp.Request.URL.String()
	if to := resp.Header.Get("Location"); resp.StatusCode >= 300 && resp.StatusCode <= 399 && to != "" {
		next, err := resp.Request.URL.Parse(to)
		if err == nil && !strings.EqualFold(next.Hostname(), resp.Request.URL.Hostname()) {
			return Result{Output: fmt.Sprintf("URL: %s\nRedirect: %s %s\n\nThe page moved to another host, which baton does not follow by itself: "+
				"call web_fetch with that URL to fetch it.", final, resp.Status, next), Summary: "redirects to " + next.Hostname()}, nil
		}
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return Result{}, fmt.Errorf("web_fetch: GET %s: %s", final, resp.Status)
	}
	text, kind, err := readable(ctx, body, resp.Header.Get("Content-Type"), final, a.Format)
	if err != nil {
		return Result{}, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "URL: %s\nContent-Type: %s\n", final, kind)
	if a.Prompt != "" {
		fmt.Fprintf(&b, "Prompt: %s\n", strings.Join(strings.Fields(a.Prompt), " "))
	}
	if cut {
		fmt.Fprintf(&b, "Note: the body was cut at %d MiB\n", maxFetchBytes>>20)
	}
	b.WriteString("\n" + text)
	summary := fmt.Sprintf("%s, %s", resp.Status, plural(utf8.RuneCountInString(text), "char", "chars"))
	return Result{Output: truncate(b.String(), t.lim.OutputChars), Summary: summary}, nil
}

// readable turns a body into text by its media type: HTML to Markdown or
// plain text, other text as is; binary content is refused.
func readable(ctx context.Context, body []byte, contentType, base, format string) (string, string, error) {
	kind, _, err := mime.ParseMediaType(contentType)
	if err != nil || kind == "" {
		kind = http.DetectContentType(body)
		kind, _, _ = mime.ParseMediaType(kind)
	}
	html := kind == "text/html" || kind == "application/xhtml+xml"
	textual := html || strings.HasPrefix(kind, "text/") || strings.HasSuffix(kind, "+json") || strings.HasSuffix(kind, "+xml") ||
		kind == "application/json" || kind == "application/xml" || kind == "application/javascript"
	if !textual {
		return "", kind, fmt.Errorf("web_fetch: the content is %s, not text", kind)
	}
	text := strings.ToValidUTF8(string(body), "\uFFFD")
	if !html || format == "html" {
		return text, kind, nil
	}
	md, err := htmltomarkdown.ConvertString(text, converter.WithContext(ctx), converter.WithDomain(base))
	if err != nil {
		return "", kind, fmt.Errorf("web_fetch: convert HTML: %w", err)
	}
	if format == "text" {
		md = plainText(md)
	}
	return md, kind, nil
}

// markdownLink is a Markdown link or image: its text is kept.
func markdownLink() *regexp.Regexp {
	markdownLinkOnce.Do(func() { markdownLinkValue = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`) })
	return markdownLinkValue
}

// markdownLinkOnce and markdownLinkValue hold it, built on first use (a zero
// sync.Once costs nothing at start; sync.OnceValue is init code).
var (
	markdownLinkOnce  sync.Once
	markdownLinkValue *regexp.Regexp
)

// plainText drops Markdown's link targets and emphasis for format "text".
func plainText(md string) string {
	md = markdownLink().ReplaceAllString(md, "$1")
	return strings.NewReplacer("**", "", "__", "", "`", "").Replace(md)
}

// fetchError words a failed request, naming the deadline when it was hit.
func fetchError(ctx context.Context, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("web_fetch: no complete answer within %s", fetchTimeout)
	}
	return fmt.Errorf("web_fetch: %w", err)
}
