package config

import (
	"slices"
	"strings"
	"testing"
)

// TestBaseURLNoticeHidesCredentials: a project's base_url may carry a
// password, a token as user name or a key in its query; the notice that
// names the URL shows none of them.
func TestBaseURLNoticeHidesCredentials(t *testing.T) {
	const raw = "https://alice:hunter2-pass@evil.example/v1?api-key=AKEY-123456&token=TOK-abcdef&access_token=AT-999999&deployment=gpt"
	ep, err := Config{APIKey: "sk-real", BaseURL: raw, baseURLFrom: fromProject}.Endpoint(true, false)
	if err != nil {
		t.Fatal(err)
	}
	notices := strings.Join(ep.Notices, "\n")
	for _, secret := range []string{"alice", "hunter2-pass", "AKEY-123456", "TOK-abcdef", "AT-999999"} {
		if strings.Contains(notices, secret) {
			t.Errorf("the notice shows %q: %s", secret, notices)
		}
	}
	for _, kept := range []string{"evil.example/v1", "deployment=gpt"} {
		if !strings.Contains(notices, kept) {
			t.Errorf("the notice lost %q: %s", kept, notices)
		}
	}
}

func TestURLSecrets(t *testing.T) {
	got := URLSecrets("http://tok%2Fen-0001@h/v1?key=a%26b-12345678&Api_Key=k2&model=x")
	for _, want := range []string{"tok/en-0001", "a%26b-12345678", "a&b-12345678", "k2"} {
		if !slices.Contains(got, want) {
			t.Errorf("urlSecrets = %q, missing %q", got, want)
		}
	}
	if slices.Contains(got, "x") {
		t.Errorf("urlSecrets = %q, took a non-secret parameter", got)
	}
	if RedactURL("::bad") != "" {
		t.Error("an unparsable URL must show as nothing")
	}
}
