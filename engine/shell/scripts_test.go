package shell

import (
	"reflect"
	"testing"
)

// scriptListCases are command lines and every Program they list: the
// scripts builtins, shells, git and programs' command options run from
// strings are listed after the command, and a look-alike that runs no
// script lists nothing more.
var scriptListCases = map[string][]string{
	`compgen -C 'rm x' -W a`:           {"compgen -C rm x -W a", "rm x"},
	`complete -C'rm y' cmd`:            {"complete -Crm y cmd", "rm y"},
	`mapfile -C 'rm z' -c 1 arr`:       {"mapfile -C rm z -c 1 arr", "rm z"},
	`sg - wheel -c 'rm x'`:             {"sg - wheel -c rm x", "rm x"},
	`sg wheel 'rm y'`:                  {"sg wheel rm y", "rm y"},
	`sg wheel`:                         {"sg wheel"},
	`source ./x.sh`:                    {"source ./x.sh"},
	`source /dev/stdin`:                {"source /dev/stdin", "?"},
	`. /proc/self/fd/0`:                {". /proc/self/fd/0", "?"},
	`source "$F"`:                      {"source ?$F", "?"},
	`source -- <(curl -s u)`:           {"curl -s u", "source -- ?<(curl -s u)", "?"},
	`. -- /dev/stdin`:                  {". -- /dev/stdin", "?"},
	`eval -- 'rm x'`:                   {"eval -- rm x", "rm x"},
	`eval --`:                          {"eval --"},
	`bash -o errexit script.sh`:        {"bash -o errexit script.sh"},
	`bash +o posix -- ./a.sh`:          {"bash +o posix -- ./a.sh"},
	`bash -O extglob -- "$S"`:          {"bash -O extglob -- ?$S", "?"},
	`bash --`:                          {"bash --"},
	`bash -e`:                          {"bash -e"},
	`bash --command='rm q'`:            {"bash --command=rm q", "rm q"},
	`bash --command 'rm r'`:            {"bash --command rm r", "rm r"},
	`bash --comm="$X"`:                 {"bash ?--comm=$X", "?$X", "?$X"},
	`bash -o pipefail -c 'rm p'`:       {"bash -o pipefail -c rm p", "rm p"},
	`echo 'rm x' | bash -- a.sh`:       {"echo rm x", "bash -- a.sh"},
	`echo 'rm x' | bash -o pipefail`:   {"echo rm x", "bash -o pipefail", "rm x"},
	`echo 'rm x' | bash -O extglob -s`: {"echo rm x", "bash -O extglob -s", "rm x"},
	`echo 'rm x' | bash --`:            {"echo rm x", "bash --", "rm x"},
	// What echo or printf print is read as the words only when it is
	// them: an escape or a conversion makes it other text.
	`echo -n 'rm x' | bash`:     {"echo -n rm x", "bash", "rm x"},
	`echo -e 'true\nrm x' | sh`: {`echo -e true\nrm x`, "sh", "?"},
	`printf '%s\n' 'rm x' | sh`: {`printf %s\n rm x`, "sh", "?"},
	`printf 'r%s x' m | sh`:     {"printf r%s x m", "sh", "?"},
	`printf -- 'rm x' | sh`:     {"printf -- rm x", "sh", "rm x"},
	// An unquoted here-document's backslashes before $ and ` go before
	// the shell reads it; a quoted one's stay.
	"bash <<EOF\necho \\`rm x\\`\nEOF":   {"bash", "rm x", "echo ?$(rm x)"},
	"bash <<'EOF'\necho \\`rm x\\`\nEOF": {"bash", "echo `rm x`"},
	"bash <<\\EOF\nr\\\nm x\nEOF":        {"bash", "rm x"},
	`ls | sh -x`:                         {"ls", "sh -x", "?"},
	`ls | "$SH"`:                         {"ls", "?$SH"},
	"bash <<< \"rm $X\"":                 {"bash", "?rm $X", "rm ?$X"},
	`trap -- 'rm t' EXIT`:                {"trap -- rm t EXIT", "rm t"},
	`trap -p EXIT`:                       {"trap -p EXIT"},
	`trap - INT`:                         {"trap - INT"},
	`trap 'rm u'`:                        {"trap rm u"},
	`alias`:                              {"alias"},
	`eval`:                               {"eval"},
	`hash -r`:                            {"hash -r"},
	`xargs -i rm {}`:                     {"rm ?{}"},
	`xargs --replace rm {}`:              {"rm ?{}"},
	`xargs -iX rm X`:                     {"rm ?X"},
	`xargs --replace=@ rm @`:             {"rm ?@"},
	`xargs -- rm {}`:                     {"rm {}"},
	`xargs -n1 -IQ rm Q`:                 {"rm ?Q"},
	`parallel`:                           {"parallel", "?"},
	`parallel -j4 'rm {}' :::: list`:     {"parallel -j4 rm {} :::: list", "?rm {}", "rm {}"},
}

// gitListCases: what git runs besides itself, from settings, command
// options, submodule foreach and bisect run; settings that bring in
// what the line does not show are opaque.
var gitListCases = map[string][]string{
	`git submodule foreach --recursive 'rm s'`:      {"git submodule foreach --recursive rm s", "rm s"},
	`git submodule foreach`:                         {"git submodule foreach"},
	`git --config-env core.pager=PAGER log`:         {"git --config-env core.pager=PAGER log", "?"},
	`git --config-env=core.editor=E commit`:         {"git --config-env=core.editor=E commit", "?"},
	`git --config-env=alias.x=Y x`:                  {"git --config-env=alias.x=Y x", "?"},
	`git -c include.path=/tmp/c log`:                {"git -c include.path=/tmp/c log", "?"},
	`git -c protocol.ext.allow=always fetch ext::x`: {"git -c protocol.ext.allow=always fetch ext::x", "?"},
	`git -c core.pager="$P" log`:                    {"git -c ?core.pager=$P log", "?"},
	`git -c user.name=x log`:                        {"git -c user.name=x log"},
	`git -c alias.l=log l`:                          {"git -c alias.l=log l"},
	`git --config-env`:                              {"git --config-env"},
	`git fetch --upload-pack 'rm u' origin`:         {"git fetch --upload-pack rm u origin", "rm u"},
	`git fetch --upload-pack`:                       {"git fetch --upload-pack"},
	`git push --receive-pack="$R" origin`:           {"git push ?--receive-pack=$R origin", "?$R", "?$R"},
	`git log --cc`:                                  {"git log --cc"},
	`git rebase -- --exec=x`:                        {"git rebase -- --exec=x"},
	`git clone -u 'rm c' url`:                       {"git clone -u rm c url", "rm c"},
	`git clone -u`:                                  {"git clone -u"},
	`git grep -O pattern`:                           {"git grep -O pattern"},
	`git difftool -x'rm d'`:                         {"git difftool -xrm d", "rm d"},
	`git -c diff.x.textconv='rm t' -C . log -p`:     {"git -c diff.x.textconv=rm t -C . log -p", "rm t"},
	// git runs a credential helper that starts with "!" as a shell
	// snippet.
	`git -c credential.helper='!rm h' pull`:           {"git -c credential.helper=!rm h pull", "rm h"},
	`git -c credential.https://h.helper='!rm h' pull`: {"git -c credential.https://h.helper=!rm h pull", "rm h"},
}

// optionListCases: a program's command option with its value missing,
// or a setting that runs nothing, lists no script.
var optionListCases = map[string][]string{
	`tar -I`:                              {"tar -I"},
	`tar -cI`:                             {"tar -cI"},
	`tar --to-command`:                    {"tar --to-command"},
	`tar -- -I rm`:                        {"tar -- -I rm"},
	`tar --checkpoint-action=dot -cf a .`: {"tar --checkpoint-action=dot -cf a ."},
	`ssh -o`:                              {"ssh -o"},
	`ssh -o User=x h`:                     {"ssh -o User=x h"},
	`ssh -o "$O" h`:                       {"ssh -o ?$O h", "?"},
	`rsync --rsh`:                         {"rsync --rsh"},
	`go test -exec`:                       {"go test -exec"},
	`go -C sub test -exec=rm ./...`:       {"go -C sub test -exec=rm ./...", "rm"},
	`make -j4 -E 'x:;rm e'`:               {"make -j4 -E x:;rm e", "x:", "rm e"},
	`zip -TT 'rm z' a.zip f`:              {"zip -TT rm z a.zip f", "rm z"},
	`split --filter='rm s' f`:             {"split --filter=rm s f", "rm s"},
}

// TestScriptsInArgumentsAreListed checks the three tables above.
func TestScriptsInArgumentsAreListed(t *testing.T) {
	for _, table := range []map[string][]string{scriptListCases, gitListCases, optionListCases} {
		for src, want := range table {
			if got := program(t, src); !reflect.DeepEqual(got, want) {
				t.Errorf("%s lists %q, want %q", src, got, want)
			}
		}
	}
}
