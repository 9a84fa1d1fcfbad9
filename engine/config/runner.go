package config

import (
	"strconv"
	"strings"

	"github.com/seed-e4e525a6/baton/engine/child"
)

// runnersFile is [runner.*]: the runners' own settings.
type runnersFile struct {
	Container  *containerFile  `toml:"container"`
	Kubernetes *kubernetesFile `toml:"kubernetes"`
}

// containerFile is [runner.container].
type containerFile struct {
	// Image is the image children run in; Host the engine's address
	// (empty: DOCKER_HOST or the engine's default socket).
	Image *text `toml:"image"`
	Host  *text `toml:"host"`
	// CPUs and Memory ("2g", "512m") limit each child's container.
	CPUs   *float64  `toml:"cpus"`
	Memory *byteSize `toml:"memory"`
	// MaxConcurrent is how many children run in containers at once (per
	// depth), in place of [limits] max_concurrent.
	MaxConcurrent *count `toml:"max_concurrent"`
}

// applyContainer takes [runner.container].
func (c *Config) applyContainer(f *containerFile) {
	if f == nil {
		return
	}
	if f.Image != nil {
		c.Container.Image = string(*f.Image)
	}
	if f.Host != nil {
		c.Container.Host = string(*f.Host)
	}
	if f.CPUs != nil {
		c.Container.CPUs = *f.CPUs
	}
	if f.Memory != nil {
		c.Container.Memory = int64(*f.Memory)
	}
	if f.MaxConcurrent != nil {
		if c.RunnerMaxConcurrent == nil {
			c.RunnerMaxConcurrent = map[string]int{}
		}
		c.RunnerMaxConcurrent[child.RunnerContainer] = int(*f.MaxConcurrent)
	}
}

// byteSize is a size in bytes written as a number or with a k, m or g
// suffix ("512m").
type byteSize int64

// UnmarshalTOML implements toml.Unmarshaler.
func (b *byteSize) UnmarshalTOML(v any) error {
	switch n := v.(type) {
	case int64:
		if n > 0 {
			*b = byteSize(n)
			return nil
		}
	case string:
		s := strings.ToLower(strings.TrimSpace(n))
		mult := int64(1)
		if s != "" {
			switch s[len(s)-1] {
			case 'k':
				mult, s = 1<<10, s[:len(s)-1]
			case 'm':
				mult, s = 1<<20, s[:len(s)-1]
			case 'g':
				mult, s = 1<<30, s[:len(s)-1]
			}
		}
		if x, err := strconv.ParseInt(s, 10, 64); err == nil && x > 0 && x <= (1<<50)/mult {
			*b = byteSize(x * mult)
			return nil
		}
	}
	return valueError{`a size such as "512m" or "2g"`, v}
}
