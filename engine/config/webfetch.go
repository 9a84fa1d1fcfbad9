package config

// webFetchFile is the [web_fetch] table.
type webFetchFile struct {
	// AllowPrivate lets web_fetch reach loopback, private and link-local
	// addresses; only the user config may set it.
	AllowPrivate *flag `toml:"allow_private"`
}

// applyWebFetch layers the [web_fetch] table.
func (c *Config) applyWebFetch(f webFetchFile) {
	if f.AllowPrivate != nil {
		c.WebFetch.AllowPrivate = bool(*f.AllowPrivate)
	}
}
