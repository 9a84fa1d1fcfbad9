package rules

import "testing"

// An allow rule never covers a command the shell reader cannot read: the
// fuzzer found sort:* allowing `sort --compress-program '!'`, whose
// option hands a shell a script that does not parse, so no deny or ask
// rule could have read it either. Nothing is offered for "always".
func TestAllowFailsClosedOnUnreadableCommands(t *testing.T) {
	allow, err := ParseAll([]string{"run_command(sort:*)", "run_command(tar:*)"})
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{`sort --compress-program '!'`, `tar -I 'if' -cf a .`, `sort --compress-program='$(' f`} {
		c := CommandCall(cmd)
		if c.Unclear() == "" {
			t.Fatalf("%s reads clearly; the case tests nothing", cmd)
		}
		if Covered(allow, c) {
			t.Errorf("%s is allowed though %s", cmd, c.Unclear())
		}
		if s := Suggest(c); s != nil {
			t.Errorf("%s offers %v for always", cmd, Strings(s))
		}
	}
	if !Covered(allow, CommandCall("sort -u names.txt")) {
		t.Error("sort:* no longer covers a plain sort")
	}
}
