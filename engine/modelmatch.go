package engine

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// modelChoice is the model a child runs on and, when that is not the
// model its file or task call named, why.
type modelChoice struct {
	model string
	why   string
}

// claudeFamilies are Claude Code's model aliases.
var claudeFamilies = []string{"sonnet", "opus", "haiku"}

// matchModel picks the model for a child that asked for want. A served
// model is used as written; otherwise the person's alias wins, then a
// served model that plainly is the one meant (OpenRouter's
// "anthropic/claude-sonnet-4.5" for "sonnet", "gpt-4.1" for OpenCode's
// "openai/gpt-4.1"), then fallback. served is nil when the endpoint
// offers no list: then only an alias changes the model, and the request
// path's own fallback handles a model the endpoint turns out not to know.
func matchModel(want string, served []string, aliases map[string]string, fallback string) modelChoice {
	if slices.Contains(served, want) {
		return modelChoice{model: want}
	}
	if to, ok := lookupAlias(aliases, want); ok {
		return modelChoice{model: to, why: fmt.Sprintf("[models.aliases] maps %s to %s", want, to)}
	}
	if served == nil {
		return modelChoice{model: want}
	}
	if m := plainMatch(want, served); m != "" {
		return modelChoice{model: m, why: fmt.Sprintf("the endpoint does not serve %s; %s is the served model that matches", want, m)}
	}
	return modelChoice{model: fallback, why: fmt.Sprintf("the endpoint does not serve %s and no served model matches; using the sub-agent model", want)}
}

// lookupAlias finds want among the aliases, ignoring case.
func lookupAlias(aliases map[string]string, want string) (string, bool) {
	if to, ok := aliases[want]; ok && to != "" {
		return to, true
	}
	for from, to := range aliases {
		if strings.EqualFold(from, want) && to != "" {
			return to, true
		}
	}
	return "", false
}

// plainMatch finds the served model want names: for a Claude alias the
// newest Claude of that family, otherwise a model whose id, without a
// provider prefix, date stamp or "-latest", is want's.
func plainMatch(want string, served []string) string {
	lower := strings.ToLower(strings.TrimSpace(want))
	if slices.Contains(claudeFamilies, lower) {
		return newestClaude(lower, served)
	}
	key := modelKey(want)
	if key == "" {
		return ""
	}
	var best string
	for _, id := range served {
		if modelKey(id) != key {
			continue
		}
		if base(id) == base(want) {
			return id // the same id under another provider prefix
		}
		if best == "" {
			best = id
		}
	}
	return best
}

// newestClaude picks the served Claude model of a family: the highest
// version, ids without a ":variant" suffix first.
func newestClaude(family string, served []string) string {
	var found []string
	for _, id := range served {
		b := strings.ToLower(base(id))
		if strings.Contains(b, "claude") && strings.Contains(b, family) {
			found = append(found, id)
		}
	}
	if len(found) == 0 {
		return ""
	}
	plain := func(id string) int {
		if strings.Contains(id, ":") {
			return 0
		}
		return 1
	}
	return slices.MaxFunc(found, func(a, b string) int {
		if c := cmp.Compare(plain(a), plain(b)); c != 0 {
			return c
		}
		return cmp.Compare(modelKey(a), modelKey(b))
	})
}

// dateSuffix is the release stamp providers append ("-20250514").
func dateSuffix() *regexp.Regexp {
	dateSuffixOnce.Do(func() { dateSuffixValue = regexp.MustCompile(`-(\d{8}|latest)$`) })
	return dateSuffixValue
}

// dateSuffixOnce and dateSuffixValue hold it, built on first use (a zero
// sync.Once costs nothing at start; sync.OnceValue is init code).
var (
	dateSuffixOnce  sync.Once
	dateSuffixValue *regexp.Regexp
)

// modelKey is an id reduced to what names the model: no provider prefix,
// dots as dashes, no date stamp, lowercase.
func modelKey(id string) string {
	k := strings.ToLower(base(id))
	k = strings.ReplaceAll(k, ".", "-")
	return dateSuffix().ReplaceAllString(k, "")
}

// base is an id without its provider prefix ("openai/gpt-4.1" → "gpt-4.1").
func base(id string) string {
	return id[strings.LastIndexByte(id, '/')+1:]
}
