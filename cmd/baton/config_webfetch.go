package main

import "errors"

// webFetchFile is the [web_fetch] table.
type webFetchFile struct {
	// AllowPrivate lets web_fetch reach loopback, private and link-local
	// addresses; only the user config may set it.
	AllowPrivate *flag `toml:"allow_private"`
}

// errProjectWebFetch refuses [web_fetch] allow_private in a project file:
// a repository must not point the model at the person's own network.
var errProjectWebFetch = errors.New("web_fetch.allow_private is not allowed in project config (a repository must not open your local network to the model); " +
	"set it under [web_fetch] in your user config")

// applyWebFetch layers the [web_fetch] table.
func (c *config) applyWebFetch(f webFetchFile) {
	if f.AllowPrivate != nil {
		c.WebFetch.AllowPrivate = bool(*f.AllowPrivate)
	}
}
