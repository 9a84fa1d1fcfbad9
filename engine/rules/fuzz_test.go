package rules

import (
	"testing"
)

// ruleSeeds are rule texts, good and bad, for FuzzParse.
var ruleSeeds = []string{
	"write_file", "run_command(go test:*)", "run_command( git   status )", "write_file(./docs/**)",
	"run_command('my tool' x:*)", "mcp__gh__issue", "mcp__gh__*", "", "run_command()", "run_command(go test",
	"run_command(a && b:*)", "run_command($X:*)", "write_file([)", "task(x)", "bad name", "run_command(ls > f)",
	`run_command("a b" 'c\'d:*)`, `read_file(/etc/**)`, `grep(src/**/*.{go,mod})`, `run_command(\rm:*)`,
	"run_command(a\nb)", "run_command(x:*:*)", "run_command(((x)))", "read_file(a\\)",
	"web_fetch(domain:docs.example.com)", "web_fetch(domain:*.example.com)", "web_fetch(domain:)", "web_fetch(https://x)",
}

// FuzzParse: the rule parser never panics, and what it accepts it
// writes back in a form it reads again to the same rule.
func FuzzParse(f *testing.F) {
	for _, s := range ruleSeeds {
		f.Add(s)
	}
	for _, s := range benignAllow {
		f.Add(s)
	}
	probe := []Call{CommandCall("git push origin"), PathCall("read_file", "docs/a.md", "/w"), {Tool: "task"}, FetchCall("https://a.example.com/x")}
	f.Fuzz(func(t *testing.T, text string) {
		r, err := Parse(text)
		if err != nil {
			return
		}
		back, err := Parse(r.String())
		if err != nil {
			t.Fatalf("%q parsed to %q, which does not parse: %v", text, r, err)
		}
		if back.String() != r.String() {
			t.Fatalf("%q parsed to %q, which reads back as %q", text, r, back)
		}
		for _, c := range probe {
			r.Matches(c)
			r.Touches(c)
		}
	})
}

// FuzzCommandRules: deciding a command never panics; a command rules
// cannot read is denied by deny rm:* and allowed by no scoped rule; and
// what "always" would offer reads back and covers the command.
func FuzzCommandRules(f *testing.F) {
	for _, table := range [][]string{denySpellings, askSpellings, benignCommands, untouched} {
		for _, s := range table {
			f.Add(s)
		}
	}
	var s Set
	s.Add(Deny, Rule{Tool: CommandTool, Scoped: true, Prefix: true, Words: []string{"rm"}})
	s.Add(Ask, Rule{Tool: CommandTool, Scoped: true, Prefix: true, Words: []string{"git", "push"}})
	for _, text := range benignAllow {
		r, err := Parse(text)
		if err != nil {
			f.Fatal(err)
		}
		s.Add(Allow, r)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		c := CommandCall(cmd)
		v, _ := s.Decide(c)
		if c.Unclear() != "" && v != Denied {
			t.Fatalf("%q is unclear (%s) but deny rm:* gave %v", cmd, c.Unclear(), v)
		}
		if Covered(s.Allow, c) && c.Unclear() != "" {
			t.Fatalf("%q is allowed though %s", cmd, c.Unclear())
		}
		suggested := Suggest(c)
		for _, r := range suggested {
			back, err := Parse(r.String())
			if err != nil || back.String() != r.String() {
				t.Fatalf("%q: suggestion %q does not read back: %v", cmd, r, err)
			}
		}
		if suggested != nil && !Covered(suggested, c) {
			t.Fatalf("%q: suggestion %v does not cover it", cmd, Strings(suggested))
		}
	})
}
