package acpagent

import (
	"slices"
	"sort"
	"strings"
)

// secretNames are variables that carry credentials by name, whatever
// their prefix: baton's and the person's keys for every provider, cloud
// and forge. An ACP agent brings its own (acp.env, or its own config).
var secretNames = []string{"_API_KEY", "_APIKEY", "_TOKEN", "_SECRET", "_PASSWORD", "_PASSWD", "_CREDENTIALS", "_ACCESS_KEY", "_ACCESS_KEY_ID", "_SESSION_KEY", "_AUTH"}

// secretExact are credential variables whose names say it less plainly,
// and sockets that lend a credential (an ssh or gpg agent).
var secretExact = []string{"OPENAI_API_KEY", "BATON_KEY_FD", "SSH_AUTH_SOCK", "GPG_AGENT_INFO", "AWS_PROFILE", "AWS_SHARED_CREDENTIALS_FILE",
	"GOOGLE_APPLICATION_CREDENTIALS", "AZURE_CLIENT_SECRET", "KUBECONFIG", "DOCKER_AUTH_CONFIG", "NPM_CONFIG__AUTH", "PGPASSWORD"}

// Environ is the environment of an ACP agent: environ without a
// variable that may hold a credential, then extra (its agent file's
// acp.env), sorted.
func Environ(environ []string, extra map[string]string) []string {
	out := make([]string, 0, len(environ)+len(extra))
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if isSecret(name) {
			continue
		}
		if _, set := extra[name]; set {
			continue
		}
		out = append(out, kv)
	}
	for name, value := range extra {
		out = append(out, name+"="+value)
	}
	sort.Strings(out)
	return out
}

// isSecret reports whether a variable's name says it may carry a
// credential.
func isSecret(name string) bool {
	upper := strings.ToUpper(name)
	if slices.Contains(secretExact, upper) {
		return true
	}
	for _, suffix := range secretNames {
		if strings.HasSuffix(upper, suffix) || strings.Contains(upper, suffix+"_") {
			return true
		}
	}
	return strings.Contains(upper, "PASSWORD") || strings.Contains(upper, "SECRET")
}
