package llm

import (
	"context"
	"fmt"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// ModelLister is the endpoint's model list; *openai.Client satisfies it.
// Not every endpoint offers one, so callers treat a failure as "unknown".
type ModelLister interface {
	ListModels(ctx context.Context) (openai.ModelsList, error)
}

// modelsTimeout bounds the one model-list request of a session: a list
// that is slow to come is not worth holding a delegation for.
const modelsTimeout = 10 * time.Second

// maxModels bounds the list kept; gateways serve a few hundred.
const maxModels = 5000

// ServedModels asks the endpoint which models it serves, within
// modelsTimeout. An endpoint without a list returns an error.
func ServedModels(ctx context.Context, l ModelLister) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, modelsTimeout)
	defer cancel()
	list, err := l.ListModels(ctx)
	if err != nil {
		return nil, fmt.Errorf("list models: %w", err)
	}
	if len(list.Models) == 0 {
		return nil, fmt.Errorf("list models: the endpoint listed none")
	}
	ids := make([]string, 0, min(len(list.Models), maxModels))
	for _, m := range list.Models[:min(len(list.Models), maxModels)] {
		if m.ID != "" {
			ids = append(ids, m.ID)
		}
	}
	return ids, nil
}
