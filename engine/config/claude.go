package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"

	"github.com/seed-e4e525a6/baton/agenttypes/repofile"
	"github.com/seed-e4e525a6/baton/engine/rules"
)

// maxSettingsBytes caps a settings file read from a repository; a real
// one is a few kilobytes.
const maxSettingsBytes = 256 << 10

// claudeSettings is the part of a Claude Code settings.json baton reads.
type claudeSettings struct {
	Permissions struct {
		Allow []string `json:"allow"`
		Ask   []string `json:"ask"`
		Deny  []string `json:"deny"`
	} `json:"permissions"`
}

// readClaudeSettings reads a Claude Code settings file's permissions into
// a layer. A missing file is empty; a rule baton cannot read is skipped
// with a notice. inside, when set, is the folder the file must resolve
// into (a repository's file), read only as a regular file.
func readClaudeSettings(path, display, inside, home string) (permissionsFile, []string, error) {
	data, err := readSettingsFile(path, inside)
	if errors.Is(err, fs.ErrNotExist) {
		return permissionsFile{}, nil, nil
	}
	if err != nil {
		return permissionsFile{}, nil, fmt.Errorf("%s: %w", display, err)
	}
	var s claudeSettings
	if err := json.Unmarshal(data, &s); err != nil {
		return permissionsFile{}, nil, fmt.Errorf("%s: %w", display, err)
	}
	var out permissionsFile
	var notices []string
	convert := func(in []string) *ruleList {
		list := ruleList{}
		for _, text := range in {
			r, err := rules.FromClaude(text, home)
			if err == nil {
				r, err = checkRule(r)
			}
			if err != nil {
				notices = append(notices, fmt.Sprintf("%s: skipped permission %q: %v", display, text, err))
				continue
			}
			list = append(list, r)
		}
		return &list
	}
	out.Allow, out.Ask, out.Deny = convert(s.Permissions.Allow), convert(s.Permissions.Ask), convert(s.Permissions.Deny)
	return out, notices, nil
}

// readSettingsFile reads a small regular file the way every file a
// repository hands baton is read: looked at before it is opened, never an
// open that blocks (a FIFO there hung the start), capped in size and
// nesting; with inside set, only one that resolves inside that folder.
func readSettingsFile(path, inside string) ([]byte, error) {
	f, err := repofile.Read(inside, path, maxSettingsBytes)
	if err == nil && !f.Cut {
		err = repofile.CheckNesting(path, f.Data, repofile.JSON)
	}
	var skip *repofile.SkipError
	switch {
	case errors.As(err, &skip):
		return nil, errors.New(skip.Reason)
	case err != nil:
		return nil, err
	case f.Cut:
		return nil, fmt.Errorf("larger than %d KiB", maxSettingsBytes>>10)
	}
	return f.Data, nil
}
