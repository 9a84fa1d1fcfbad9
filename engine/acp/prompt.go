package acp

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
)

// Bounds on what a prompt carries: an attached file is cut at
// maxAttachedBytes, the whole prompt refused past maxPromptBytes.
const (
	maxAttachedBytes = 256 << 10
	maxPromptBytes   = 4 << 20
)

// promptText turns the client's prompt blocks into the text the main
// agent gets: the person's words, each attached file's text in a fenced
// block, and each linked file by its path (the agent reads it if it
// needs to).
func promptText(blocks []contentBlock, workspace string) (string, error) {
	var parts []string
	for _, b := range blocks {
		switch b.Type {
		case "text":
			parts = append(parts, b.Text)
		case "resource_link":
			parts = append(parts, "Attached: "+resourceName(b.URI, b.Name, workspace))
		case "resource":
			if b.Resource == nil {
				return "", fmt.Errorf("a resource block without its resource")
			}
			parts = append(parts, attached(*b.Resource, workspace))
		default:
			return "", fmt.Errorf("baton takes text and resources in a prompt, not %q", b.Type)
		}
	}
	prompt := strings.TrimSpace(strings.Join(parts, "\n\n"))
	switch {
	case prompt == "":
		return "", fmt.Errorf("the prompt is empty")
	case len(prompt) > maxPromptBytes:
		return "", fmt.Errorf("the prompt is %d bytes, over baton's %d", len(prompt), maxPromptBytes)
	}
	return prompt, nil
}

// attached is an embedded resource as prompt text.
func attached(r resourceContent, workspace string) string {
	name := resourceName(r.URI, "", workspace)
	if r.Text == nil {
		return fmt.Sprintf("Attached: %s (binary content, not included)", name)
	}
	body, note := *r.Text, ""
	if len(body) > maxAttachedBytes {
		body = strings.ToValidUTF8(body[:maxAttachedBytes], "")
		note = fmt.Sprintf("\n[cut at %d KiB of %d]", maxAttachedBytes>>10, len(*r.Text)>>10)
	}
	fence := "```"
	for strings.Contains(body, fence) {
		fence += "`"
	}
	return fmt.Sprintf("Attached: %s\n%s\n%s\n%s%s", name, fence, strings.TrimSuffix(body, "\n"), fence, note)
}

// resourceName is how a prompt names a resource: a file of the workspace
// by its relative path, another file by its absolute one, anything else
// by its URI (or the name the client gave).
func resourceName(uri, name, workspace string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		if uri == "" {
			return name
		}
		return uri
	}
	p := filepath.Clean(u.Path)
	if rel, err := filepath.Rel(workspace, p); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
		return filepath.ToSlash(rel)
	}
	return p
}
