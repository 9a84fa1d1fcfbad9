package conversation

import (
	"github.com/seed-e4e525a6/baton/ui/command"
	"github.com/seed-e4e525a6/baton/ui/convo"
)

// commandBlock is a command's output in the conversation, drawn with the
// conversation's own drawing of an entry.
type commandBlock struct{ command.Block }

func (b *commandBlock) render(rc *renderCtx, width int) []string {
	return b.Lines(rc.styles, width, func(e convo.Entry, width int) []string { return entryLines(rc, e, width) })
}
