package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/rules"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// A prompt the person sends may name workspace files with @path (as in
// Claude Code): each file's content goes with the prompt, read by the main
// agent's own read_file (list_files for a folder), so the same guards hold
// as for a call the model makes: inside the workspace, symlinks resolved,
// no device or FIFO, the size cap, and the deny rules. An ask rule does
// not stop it: the person named the file. Each read shows as a call of
// the person's, and what could not be attached says why; a mention that
// names nothing is left as the text it is.

// maxFileMentions is how many files one prompt attaches.
const maxFileMentions = 10

// mentionPattern finds @mentions: an @ that starts a word, then a quoted
// path or a run of non-space characters.
func mentionPattern() *regexp.Regexp {
	mentionPatternOnce.Do(func() { mentionPatternValue = regexp.MustCompile(`(?:^|\s)@("[^"\n]+"|[^\s"]+)`) })
	return mentionPatternValue
}

// mentionPatternOnce and mentionPatternValue hold it, built on first use (a zero
// sync.Once costs nothing at start; sync.OnceValue is init code).
var (
	mentionPatternOnce  sync.Once
	mentionPatternValue *regexp.Regexp
)

// mcpMention is a server's resource (@server:uri), which is not a path.
func mcpMention() *regexp.Regexp {
	mcpMentionOnce.Do(func() { mcpMentionValue = regexp.MustCompile(`^[A-Za-z0-9_.-]+:`) })
	return mcpMentionValue
}

// mcpMentionOnce and mcpMentionValue hold it, built on first use (a zero
// sync.Once costs nothing at start; sync.OnceValue is init code).
var (
	mcpMentionOnce  sync.Once
	mcpMentionValue *regexp.Regexp
)

// FileMentions lists the paths a prompt names with @, in order, once each.
// A prompt without an @ names none: most prompts, which then neither
// build the pattern nor run it (a compiled regular expression and its
// matcher's state, some 0.1 MB, in a headless run's peak RSS).
func FileMentions(prompt string) []string {
	if !strings.Contains(prompt, "@") {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, m := range mentionPattern().FindAllStringSubmatch(prompt, -1) {
		path := m[1]
		if unquoted, ok := strings.CutPrefix(path, `"`); ok {
			path = strings.TrimSuffix(unquoted, `"`)
		} else {
			path = strings.TrimRightFunc(path, func(r rune) bool { return strings.ContainsRune(".,;:!?)]}'`", r) })
		}
		if path == "" || strings.Contains(path, "://") || mcpMention().MatchString(path) || seen[path] {
			continue
		}
		seen[path] = true
		out = append(out, path)
	}
	return out
}

// attachFiles reads the files the typed prompt names and attaches
// their contents to x, within the tool output budget.
func (s *Session) attachFiles(ctx context.Context, a *agent.Agent, typed string, x *expansion) {
	paths := FileMentions(typed)
	if len(paths) == 0 {
		return
	}
	budget := s.cfg.Limits.ToolOutputChars
	var b strings.Builder
	for i, path := range paths {
		if i == maxFileMentions {
			a.Emit(event.Notice{Meta: a.Stamp(), Text: fmt.Sprintf("only the first %d @mentions are attached; %s not", maxFileMentions, strings.Join(paths[i:], ", "))})
			break
		}
		content, ok := s.readFileMention(ctx, a, path, budget)
		if !ok {
			continue
		}
		budget -= utf8.RuneCountInString(content)
		fmt.Fprintf(&b, "\n\n<file path=%q>\n%s\n</file>", path, content)
	}
	if b.Len() > 0 {
		x.attachments = append(x.attachments, "Files the person attached with @ (already read for you):"+b.String())
	}
}

// readFileMention reads one mentioned path, shown as a read_file (or
// list_files) call of the person's; ok is false when nothing is attached.
func (s *Session) readFileMention(ctx context.Context, a *agent.Agent, path string, budget int) (string, bool) {
	toolName := "read_file"
	if isFolder(s.cfg.Workspace, path) {
		toolName = "list_files"
	}
	tool, have := a.Tool(toolName)
	if !have {
		return "", false
	}
	args, _ := json.Marshal(map[string]string{"path": path})
	id := s.ids.personCall()
	start := func() {
		a.Emit(event.ToolStarted{Meta: a.Stamp(), CallID: id, Name: toolName, Args: string(args), Title: "attach @" + path})
	}
	fail := func(err error) (string, bool) {
		a.Emit(event.ToolFinished{Meta: a.Stamp(), CallID: id, Name: toolName, IsError: true,
			Output: "not attached: " + err.Error(), Summary: "not attached: " + firstLine(err.Error())})
		return "", false
	}
	if rule, denied := s.perms.DenyRule(rules.CallOf(toolName, args, s.cfg.Workspace)); denied {
		start()
		return fail(fmt.Errorf("denied by the rule deny %s", rule))
	}
	if budget <= 0 {
		start()
		return fail(errors.New("the files attached before it fill the tool output limit (tool_output_chars)"))
	}
	if hold := s.mainGate.Withholding(toolName).Func(); hold != nil {
		ctx = tools.WithWithhold(ctx, hold)
	}
	res, err := tool.Run(ctx, args)
	if err != nil && strings.HasPrefix(err.Error(), "file not found") && !looksLikePath(path) {
		return "", false // "@someone" in a sentence
	}
	start()
	if err != nil {
		return fail(err)
	}
	res.Output = agent.Truncate(res.Output, budget)
	a.Emit(event.ToolFinished{Meta: a.Stamp(), CallID: id, Name: toolName, Summary: cmpText(res.Summary, "attached"), Output: res.Output})
	return res.Output, true
}

// isFolder says whether path names a folder in the workspace (the tool
// then decides whether it may be read).
func isFolder(workspace, path string) bool {
	if !filepath.IsAbs(path) {
		path = filepath.Join(workspace, path)
	}
	info, err := os.Stat(path) // a stat never blocks, not even on a FIFO
	return err == nil && info.IsDir()
}

// looksLikePath says whether a mention reads as a file name rather than
// a word: it has a folder or an extension.
func looksLikePath(path string) bool {
	return strings.ContainsAny(path, "/.") && strings.IndexFunc(path, unicode.IsLetter) >= 0
}

// maxMentionPaths bounds the list MentionPaths walks for completion.
const maxMentionPaths = 20000

// MentionPaths lists the workspace's files and folders the person may
// name with @, for completion: what list_files would show (no .git, no
// gitignored entries, none a deny rule covers), at most 20000. It walks
// the tree, so the UI calls it from a Cmd.
func (s *Session) MentionPaths() ([]string, error) {
	ctx := s.ctx
	if hold := s.mainGate.Withholding("list_files").Func(); hold != nil {
		ctx = tools.WithWithhold(ctx, hold)
	}
	paths, _, err := tools.Paths(ctx, s.ws, maxMentionPaths)
	if err != nil {
		return nil, fmt.Errorf("list the workspace: %w", err)
	}
	return paths, nil
}
