package parse

import (
	"slices"
	"strings"
	"testing"
)

func TestBlocks(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"atx headings", "# One\n## Two ##\n###### Six\n####### seven\n#no", "H1(One) H2(Two) H6(Six) P(####### seven/#no)"},
		{"atx closing run", "# a #b\n# #\n### x \\#", "H1(a #b) H1() H3(x #)"},
		{"setext", "Title\n=====\n\nSub\nline\n---", "H1(Title) H2(Sub/line)"},
		{"paragraph lines", "  one  \n   two\nthree  ", "P(one//two/three)"},
		{"rules", "***\n---\n___\n- - -\n* * *\n--", "HR HR HR HR HR P(--)"},
		{"rule after paragraph is setext", "para\n***\n", "P(para) HR"},
		{"fenced", "```go\nfunc f() {}\n\n  x\n```\nafter", "Code(Fenced go: func f() {}||  x) P(after)"},
		{"tilde fence with backticks in info", "~~~ a`b\nx\n~~~~", "Code(Fenced a`b: x)"},
		{"backtick info with backtick is no fence", "``` a`b\nx", "P(``` a`b/x)"},
		{"fence closed only by as long a run", "````\n```\nx\n````", "Code(Fenced : ```|x)"},
		{"unclosed fence runs to the end", "```\na\n\nb", "Code(Fenced : a||b)"},
		{"indented fence strips its indent", "  ```\n  a\n b\nc\n  ```", "Code(Fenced : a|b|c)"},
		{"indented code", "    a\n      b\n\n    c\n\n\npara", "Code(Indented: a|  b||c) P(para)"},
		{"indented code cannot interrupt a paragraph", "para\n    more", "P(para/more)"},
		{"quote", "> a\n> b\n>\n> c", "Quote[P(a/b) P(c)]"},
		{"nested quote and lazy line", "> a\n>> b\nlazy\n\n>no space", "Quote[P(a) Quote[P(b/lazy)]] Quote[P(no space)]"},
		{"quote ends at a line without >", "> a\n\nb", "Quote[P(a)] P(b)"},
		{"quote holds a fence", "> ```\n> x\n> ```\n> y", "Quote[Code(Fenced : x) P(y)]"},
		{"tight list", "- a\n- b\n- c", "List(Bullet - tight)[Item[P(a)] Item[P(b)] Item[P(c)]]"},
		{"loose list", "- a\n\n- b", "List(Bullet - loose)[Item[P(a)] Item[P(b)]]"},
		{"loose by an item's blocks", "- a\n\n  b\n- c", "List(Bullet - loose)[Item[P(a) P(b)] Item[P(c)]]"},
		{"blank line at the end stays tight", "- a\n- b\n\npara", "List(Bullet - tight)[Item[P(a)] Item[P(b)]] P(para)"},
		{"new bullet starts a new list", "- a\n+ b\n* c", "List(Bullet - tight)[Item[P(a)]] List(Bullet + tight)[Item[P(b)]] List(Bullet * tight)[Item[P(c)]]"},
		{"ordered start and delimiter", "7. a\n8. b\n\n1) c", "List(Ordered 7 . tight)[Item[P(a)] Item[P(b)]] List(Ordered 1 ) tight)[Item[P(c)]]"},
		{"nested lists", "1. a\n   - b\n     - c\n2. d", "List(Ordered 1 . tight)[Item[P(a) List(Bullet - tight)[Item[P(b) List(Bullet - tight)[Item[P(c)]]]]] Item[P(d)]]"},
		{"only 1 interrupts a paragraph", "a\n2. b\n1. c", "P(a/2. b) List(Ordered 1 . tight)[Item[P(c)]]"},
		{"empty item cannot interrupt a paragraph", "a\n-\nb", "H2(a) P(b)"},
		{"empty item", "-\n  foo\n-\n\n  bar", "List(Bullet - tight)[Item[P(foo)] Item[]] P(bar)"},
		{"item with code after five spaces", "-     code\n  more", "List(Bullet - tight)[Item[Code(Indented: code) P(more)]]"},
		{"lazy item line", "- a\nb", "List(Bullet - tight)[Item[P(a/b)]]"},
		{"ten digits is no list", "1234567890. x", "P(1234567890. x)"},
		{"marker needs a space", "-a\n1.b", "P(-a/1.b)"},
		{"rule beats item", "- a\n* * *\n- b", "List(Bullet - tight)[Item[P(a)]] HR List(Bullet - tight)[Item[P(b)]]"},
		{"html block ended by blank line", "<div>\n*x*\n\n*y*", "HTML(<div>|*x*) P(Em{y})"},
		{"html comment block", "<!-- a\nb -->\nc", "HTML(<!-- a|b -->) P(c)"},
		{"html pre block", "<pre>\n\nx\n</pre>\ny", "HTML(<pre>||x|</pre>) P(y)"},
		{"html kinds 3 4 5", "<?php x ?>\n<!DOCTYPE html>\n<![CDATA[\nx]]>", "HTML(<?php x ?>) HTML(<!DOCTYPE html>) HTML(<![CDATA[|x]]>)"},
		{"html open tag line", "<custom-tag a=\"1\" b='2' c=d e>\ntext\n\npara", "HTML(<custom-tag a=\"1\" b='2' c=d e>|text) P(para)"},
		{"html closing tag line", "</custom>\nx", "HTML(</custom>|x)"},
		{"kind 7 cannot interrupt a paragraph", "para\n<custom>", "P(para/HTML{<custom>})"},
		{"script is not kind 7", "<script>\nx\n</script>", "HTML(<script>|x|</script>)"},
		{"tag with text after is no block", "<span>x</span>", "P(HTML{<span>}xHTML{</span>})"},
		{"block tag with text after is a block", "<div>x</div>\ny", "HTML(<div>x</div>|y)"},
		{"closing tag with attributes is no block", "</x a=1>", "P(</x a=1>)"},
		{"indented four spaces in a list item", "- a\n\n      code", "List(Bullet - loose)[Item[P(a) Code(Indented: code)]]"},
		{"last line of only prefixes adds nothing", "> ```\n>\n> ", "Quote[Code(Fenced : )]"},
		{"tabs count as a column", "-\tx\n\tcode", "List(Bullet - tight)[Item[P(x/code)]]"},
		{"markers on one line nest", "- - x\n* * a", "List(Bullet - tight)[Item[List(Bullet - tight)[Item[P(x)]]]] List(Bullet * tight)[Item[List(Bullet * tight)[Item[P(a)]]]]"},
		{"a rule after a marker", "- * * *\n- - - -", "List(Bullet - tight)[Item[HR]] HR"},
		{"nesting read a few columns at a time", "- a\n  - b\n    - c\n      d\n   e", "List(Bullet - tight)[Item[P(a) List(Bullet - tight)[Item[P(b) List(Bullet - tight)[Item[P(c/d/e)]]]]]]"},
		{"empty", "", ""},
		{"blank lines", "\n  \n\n", ""},
	} {
		if got := dump(Parse(tc.src).Blocks); got != tc.want {
			t.Errorf("%s: Parse(%q)\n got %s\nwant %s", tc.name, tc.src, got, tc.want)
		}
	}
}

func TestStarts(t *testing.T) {
	src := "# h\n\npara\nmore\n\n\n- a\n- b\n\n```\nx\n```\n"
	got := Parse(src).Starts
	if want := []int{0, 5, 17, 26}; !slices.Equal(got, want) {
		t.Fatalf("Starts = %v, want %v", got, want)
	}
}

func TestInlines(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"plain text", "plain text"},
		{"*em* **strong** ***both*** _u_ __uu__", "Em{em} Strong{strong} Em{Strong{both}} Em{u} Strong{uu}"},
		{"snake_case_words and 2*3*4", "snake_case_words and 2Em{3}4"},
		{"a * b * c and foo*", "a * b * c and foo*"},
		{"**bold *nested* bold**", "Strong{bold Em{nested} bold}"},
		{"*a **b** c*", "Em{a Strong{b} c}"},
		{"***triple** then*", "Em{Strong{triple} then}"},
		{"*foo**bar**baz*", "Em{fooStrong{bar}baz}"},
		{"**foo*", "*Em{foo}"},
		{"*unclosed and **also", "*unclosed and **also"},
		{"__init__.py and _(x)_", "Strong{init}.py and Em{(x)}"},
		{"intra_word_ and *intra*word", "intra_word_ and Em{intra}word"},
		{"`code` ``a ` b`` ` x ` `  ` `unclosed", "Code{code} Code{a ` b} Code{x} Code{  } `unclosed"},
		{"`multi\nline`", "Code{multi line}"},
		{"\\*not em\\* \\\\ \\a \\`", "*not em* \\ \\a `"},
		{"&amp; &lt;&gt; &quot; &#65;&#x42;&#X43; &copy; &nbsp; &bogus; &#0; &#12345678; & alone", "& <> \" ABC © \u00a0 &bogus; \ufffd &#12345678; & alone"},
		{"&#27;[2J &#x1b;]0;t&#7; &#x9B; &#127; &#9; &#10;", "\ufffd[2J \ufffd]0;t\ufffd \ufffd \ufffd \ufffd \ufffd"},
		{"hard  \nbreak\\\nagain\nsoft", "hard//break//again/soft"},
		{"trailing\\", "trailing\\"},
		{"two\\\\\nslashes", "two\\/slashes"},
		{"[text](http://x.y \"Title\") [t](<a b> 'q') [e]() [p](a(b)c)", "Link<http://x.y|Title>{text} Link<a b|q>{t} Link<|>{e} Link<a(b)c|>{p}"},
		{"[t](u (paren title)) [t](\n  u\n  \"multi\nline\"\n)", "Link<u|paren title>{t} Link<u|multi\nline>{t}"},
		{"![alt *em*](img.png) ![](x)", "Image<img.png|>{alt Em{em}} Image<x|>{}"},
		{"[a [b](c) d](e)", "[a Link<c|>{b} d](e)"},
		{"[![img](i)](l)", "Link<l|>{Image<i|>{img}}"},
		{"[ref][x] [collapsed][] [shortcut]", "[ref][x] [collapsed][] [shortcut]"},
		{"[bad](a b) [bad](<a) [bad](a \"t) ]x[", "[bad](a b) [bad](<a) [bad](a \"t) ]x["},
		{"*[a*](b)", "*Link<b|>{a*}"},
		{"[*a](b)*", "Link<b|>{*a}*"},
		{"<https://x.y/a?b=1> <mailto:a@b.c> <a@b.co> <a@-b.co> <h:> <1x:y> <ab:c d>", "Auto{https://x.y/a?b=1} Auto{mailto:a@b.c} Auto{a@b.co} <a@-b.co> <h:> <1x:y> <ab:c d>"},
		{"<b>bold</b> <a href=\"x\" id=y z>t</a> <br/> <x\nattr='1'>", "HTML{<b>}boldHTML{</b>} HTML{<a href=\"x\" id=y z>}tHTML{</a>} HTML{<br/>} HTML{<x\nattr='1'>}"},
		{"<!-- c --> <!--> <!---> <?pi?> <!DOC x> <![CDATA[d]]> <!-- open", "HTML{<!-- c -->} HTML{<!-->} HTML{<!--->} HTML{<?pi?>} HTML{<!DOC x>} HTML{<![CDATA[d]]>} <!-- open"},
		{"1 < 2 > 0 <a <1> </> <a b=>", "1 < 2 > 0 <a <1> </> <a b=>"},
		{"*em\nacross*", "Em{em/across}"},
		{"![not image", "![not image"},
		{"a!b", "a!b"},
		{"*«a»* x\u00a0*b*\u00a0 _é_", "Em{«a»} x\u00a0Em{b}\u00a0 Em{é}"},
		{`[t](u "a \" b") [t](u 'it\\') [t](u (a(b)) [t](u (x\)y))`, `Link<u|a " b>{t} Link<u|it\>{t} [t](u (a(b)) Link<u|x)y>{t}`},
		{"[t](" + strings.Repeat("(", 40) + "x" + strings.Repeat(")", 41), "[t](" + strings.Repeat("(", 40) + "x" + strings.Repeat(")", 41)},
		{`[t](a\)b) [t](<a\>b>)`, `Link<a\)b|>{t} Link<a\>b|>{t}`},
		{`[t](<a<b>) [t](<a\<b>)`, `[t](<aHTML{<b>}) Link<a\<b|>{t}`},
		{"<a+b.c-d:x> <a_b:c> <ab:c\u007f>", "Auto{a+b.c-d:x} <a_b:c> Auto{ab:c\u007f}"},
		{"<x@y.z_> <a@b..c> <" + strings.Repeat("a", 70) + "@b.c>", "<x@y.z_> <a@b..c> Auto{" + strings.Repeat("a", 70) + "@b.c}"},
	} {
		if got := dumpInlines(Inlines(tc.src)); got != tc.want {
			t.Errorf("Inlines(%q)\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
}
