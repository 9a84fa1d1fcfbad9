package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"unicode"

	"github.com/seed-e4e525a6/baton/agenttypes/jsonc"
	"github.com/seed-e4e525a6/baton/agenttypes/repofile"
	"github.com/seed-e4e525a6/baton/engine/child"
)

// DevcontainerFile is where a project names the image its tools run in;
// only its "image" is read.
const DevcontainerFile = ".devcontainer" + string(filepath.Separator) + "devcontainer.json"

// maxDevcontainerBytes bounds the devcontainer file a repository hands
// baton; a real one is a few KiB.
const maxDevcontainerBytes = 64 << 10

// maxImageRef bounds an image reference (Docker's own limit on a name is
// 255 characters, and a tag or digest adds less than 100).
const maxImageRef = 512

// applyDevcontainer takes the container image from the project's
// devcontainer file when the person's config names none: only when the
// folder is trusted, since the image is code the children run and what
// their workspace and key are handed to. Untrusted, the image is not
// used, which a notice says when children run in containers; a file
// that cannot be used is a notice, never a reason not to start.
func (c *Config) applyDevcontainer(workspace string, trusted bool) {
	if c.Container.Image != "" || workspace == "" {
		return
	}
	image, err := readDevcontainerImage(workspace)
	switch {
	case err != nil:
		c.Notices = append(c.Notices, err.Error())
	case image == "":
	case !trusted:
		if c.Runner == child.RunnerContainer {
			c.Notices = append(c.Notices, fmt.Sprintf("%s: image %q not used: this folder is not trusted", filepath.ToSlash(DevcontainerFile), image))
		}
	default:
		c.Container.Image = image
		if c.Runner == child.RunnerContainer {
			c.Notices = append(c.Notices, fmt.Sprintf("sub-agents run in containers of %s, the image %s names", image, filepath.ToSlash(DevcontainerFile)))
		}
	}
}

// readDevcontainerImage returns the "image" of the workspace's
// devcontainer file, "" when there is no file or it names none (it builds
// from a Dockerfile or a compose file, which baton does not do).
func readDevcontainerImage(workspace string) (string, error) {
	display := filepath.ToSlash(DevcontainerFile)
	f, err := repofile.Read(workspace, filepath.Join(workspace, DevcontainerFile), maxDevcontainerBytes)
	var skip *repofile.SkipError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", nil
	case errors.As(err, &skip):
		return "", fmt.Errorf("%s skipped: %s", display, skip.Reason)
	case err != nil:
		return "", fmt.Errorf("%s skipped: %w", display, err)
	case f.Cut:
		return "", fmt.Errorf("%s skipped: larger than %d KiB", display, maxDevcontainerBytes>>10)
	}
	if err := repofile.CheckNesting(display, f.Data, repofile.JSON); err != nil {
		return "", fmt.Errorf("%s skipped: %w", display, err)
	}
	var file struct {
		Image json.RawMessage `json:"image"`
	}
	if err := json.Unmarshal(jsonc.Strip(f.Data), &file); err != nil {
		return "", fmt.Errorf("%s skipped: %w", display, err)
	}
	if file.Image == nil {
		return "", nil
	}
	var image string
	if err := json.Unmarshal(file.Image, &image); err != nil || !plausibleImage(image) {
		return "", fmt.Errorf("%s skipped: its image is not an image reference", display)
	}
	return image, nil
}

// plausibleImage reports whether s could be an image reference: short,
// and without spaces or control characters (which would reach the
// engine's API and the person's screen).
func plausibleImage(s string) bool {
	if s == "" || len(s) > maxImageRef || s[0] == '-' {
		return false
	}
	for _, r := range s {
		if r > unicode.MaxASCII || unicode.IsSpace(r) || unicode.IsControl(r) {
			return false
		}
	}
	return true
}
