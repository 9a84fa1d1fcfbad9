package config

import (
	"net/url"
	"slices"
	"strings"
)

// secretParamParts mark a query parameter whose value is a credential:
// ?key=, ?api-key=, ?api_key=, ?token=, ?access_token=, ?sig=, ...
var secretParamParts = []string{"key", "token", "secret", "pass", "sig", "auth", "credential"}

// RedactURL is a base URL fit to show or log: the user info (a password,
// or a token used as the user name) and credential-looking query values
// are replaced by "redacted". An unparsable URL shows as nothing, since
// there is no telling which part of it is the secret.
func RedactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	if u.User != nil {
		u.User = url.User("redacted")
	}
	if u.RawQuery != "" {
		q := u.Query()
		for name, values := range q {
			if secretParam(name) {
				for i := range values {
					values[i] = "redacted"
				}
			}
		}
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// URLSecrets are the credentials a base URL carries, as written and
// decoded, so transcripts never hold them either.
func URLSecrets(s string) []string {
	u, err := url.Parse(s)
	if err != nil {
		return nil
	}
	var out []string
	if u.User != nil {
		out = append(out, u.User.Username())
		if pw, ok := u.User.Password(); ok {
			out = append(out, pw)
		}
	}
	for _, pair := range strings.Split(u.RawQuery, "&") {
		name, raw, _ := strings.Cut(pair, "=")
		if decoded, err := url.QueryUnescape(name); err == nil {
			name = decoded
		}
		if !secretParam(name) || raw == "" {
			continue
		}
		out = append(out, raw)
		if decoded, err := url.QueryUnescape(raw); err == nil && decoded != raw {
			out = append(out, decoded)
		}
	}
	return out
}

// secretParam says whether a query parameter's name marks a credential.
func secretParam(name string) bool {
	lower := strings.ToLower(name)
	return slices.ContainsFunc(secretParamParts, func(p string) bool { return strings.Contains(lower, p) })
}
