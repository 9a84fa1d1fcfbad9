package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
)

// minSecretLen is the shortest value treated as a secret. Shorter values
// ("1", "true", "us") would blank ordinary words all over a transcript
// while protecting nothing a real credential looks like.
const minSecretLen = 8

// secretNameParts mark an environment variable whose value is a secret.
var secretNameParts = []string{"KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL"}

// Redactor replaces known secrets with "[redacted]" in every line before it
// reaches a file. It is safe for concurrent use; a nil *Redactor redacts
// nothing.
type Redactor struct {
	replacer *strings.Replacer
}

// NewRedactor returns a Redactor for the given secrets. Values shorter than
// 8 bytes are ignored. Each secret is matched in every form it can take
// inside a record (see encodings).
func NewRedactor(secrets ...string) *Redactor {
	var forms []string
	for _, s := range secrets {
		if len(s) < minSecretLen {
			continue
		}
		for _, f := range encodings(s) {
			if !slices.Contains(forms, f) {
				forms = append(forms, f)
			}
		}
	}
	if len(forms) == 0 {
		return &Redactor{}
	}
	// Longest first, so a secret containing another is replaced whole.
	slices.SortFunc(forms, func(a, b string) int { return len(b) - len(a) })
	pairs := make([]string, 0, 2*len(forms))
	for _, f := range forms {
		pairs = append(pairs, f, "[redacted]")
	}
	return &Redactor{replacer: strings.NewReplacer(pairs...)}
}

// SecretsFromEnv returns the values of the variables in environ (as from
// os.Environ) whose name contains KEY, TOKEN, SECRET, PASSWORD, PASSWD or
// CREDENTIAL, e.g. OPENAI_API_KEY.
func SecretsFromEnv(environ []string) []string {
	var secrets []string
	for _, kv := range environ {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || value == "" {
			continue
		}
		upper := strings.ToUpper(name)
		if slices.ContainsFunc(secretNameParts, func(p string) bool { return strings.Contains(upper, p) }) {
			secrets = append(secrets, value)
		}
	}
	return secrets
}

// Redact returns s with every secret replaced by "[redacted]".
func (r *Redactor) Redact(s string) string {
	if r == nil || r.replacer == nil {
		return s
	}
	return r.replacer.Replace(s)
}

// redactLine redacts one encoded record. A secret that spans the record's
// JSON structure would leave an unreadable line; such a record is refused
// rather than written broken or unredacted.
func (r *Redactor) redactLine(line []byte) ([]byte, error) {
	in := string(line)
	out := r.Redact(in)
	if out == in {
		return line, nil
	}
	if !json.Valid([]byte(out)) {
		return nil, errors.New("redact record: a secret spans the record's structure, record not written")
	}
	return []byte(out), nil
}

// encodings are the forms s takes in a transcript line: as written; JSON
// escaped by this package's encoder (`\"`, `\\`) and by encoders that
// escape HTML (`\u0026`, `\u003c`, `\u003e`) or slashes (`\/`), as a
// model's or a tool's own JSON does; and each of those escaped again, up
// to three levels deep: a JSON file's text inside write_file's arguments
// inside a ToolStarted record is three strings deep.
func encodings(s string) []string {
	forms := []string{s}
	level := []string{s}
	for range 3 {
		var next []string
		for _, f := range level {
			for _, html := range []bool{false, true} {
				esc := jsonEscaped(f, html)
				for _, form := range []string{esc, strings.ReplaceAll(esc, "/", `\/`)} {
					if !slices.Contains(forms, form) {
						forms = append(forms, form)
						next = append(next, form)
					}
				}
			}
		}
		level = next
	}
	return forms
}

// jsonEscaped is s as it appears between the quotes of a JSON string,
// with or without HTML escaping.
func jsonEscaped(s string, html bool) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(html)
	if err := enc.Encode(s); err != nil {
		return s
	}
	quoted := bytes.TrimSpace(buf.Bytes())
	return string(quoted[1 : len(quoted)-1])
}
