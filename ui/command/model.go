package command

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/ui/overlay/modelpick"
	"github.com/seed-e4e525a6/baton/ui/status"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// modelCommand is /model.
func modelCommand() Command {
	return Command{Name: "model", Args: "NAME", Desc: "switch the model (alone: pick from the endpoint's list)", Run: switchModel}
}

// switchModel switches the main agent's model for the next request, or
// alone opens the picker over the endpoint's models.
func switchModel(env *Env, arg string) tea.Cmd {
	if arg == "" {
		openPicker(env)
		return nil
	}
	if strings.ContainsFunc(arg, unicode.IsSpace) || strings.HasPrefix(arg, "/") {
		env.Status.Set(status.Error, fmt.Sprintf("model: %q is not a model name; /model NAME switches", termtext.Clean(arg)))
		return nil
	}
	return Do(modelResult(env, arg))
}

// modelResult switches to name, and says at once when the endpoint's
// list lacks it, rather than on the next prompt's 404.
func modelResult(env *Env, name string) Result {
	r := Result{Model: name}
	if env.Options.CheckModel == nil {
		return r
	}
	if why := env.Options.CheckModel(name); why != "" {
		r.Say, r.Level = "model: "+termtext.Clean(name)+" · "+termtext.Clean(why), status.Warning
	}
	return r
}

// openPicker is the picker over the endpoint's models, under the
// conversation as a card is, or a word on why there is none.
func openPicker(env *Env) {
	if env.Options.Models == nil {
		env.Status.Set(status.Info, "model: "+env.Model+" (/model NAME switches)")
		return
	}
	models, ready := env.Options.Models()
	switch {
	case !ready:
		env.Status.Set(status.Info, "model: "+env.Model+" · the endpoint's model list is still loading; /model NAME switches")
		return
	case len(models) == 0:
		env.Status.Set(status.Info, "model: "+env.Model+" · the endpoint offers no model list; /model NAME switches")
		return
	}
	models = slices.Clone(models)
	slices.SortFunc(models, func(a, b modelpick.Model) int { return cmp.Compare(a.ID, b.ID) })
	env.Layers.Push(modelpick.New(models, env.Model, env.Styles, func(id string) tea.Cmd { return Do(Result{Model: id}) }))
}
