package ingest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestCleanText: every form a producer writes text in comes out as plain
// paragraphs, and plain text that only looks like markup is left alone.
func TestCleanText(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"entity", "Security &amp; Safety", "Security & Safety"},
		{"numeric entity", "DON&#x27;Ts", "DON'Ts"},
		{"double escaped", "R&amp;amp;D &amp;lt;fast&amp;gt;", "R&D <fast>"},
		{"escaped many times", "a &amp;amp;amp;amp;amp;amp;amp;amp;amp;amp;amp;amp; b", "a & b"},
		{"escaped HTML", "&lt;p&gt;One&lt;/p&gt;&lt;p&gt;Two &lt;a href='https://x.example'&gt;link&lt;/a&gt;&lt;/p&gt;", "One\n\nTwo link"},
		{"HTML", "<p>One &amp; <b>two</b>.</p>\n<p>Three<br/>four</p>", "One & two.\n\nThree\nfour"},
		{"HTML list", "<p>List:</p><ul><li>Alpha</li><li>Beta</li></ul>", "List:\n\nAlpha\nBeta"},
		{"text paragraphs around a link", "First part.\r\n\r\nSee <a href=\"https://x.example\">the site</a>.", "First part.\n\nSee the site."},
		{"Markdown strong and link", "We **measured** it: [the paper](https://x.example/p.pdf).", "We measured it: the paper."},
		{"Markdown list and heading", "## Plan\n\n- one\n- two\n\n1. first\n2. second", "Plan\n\none\ntwo\n\nfirst\nsecond"},
		{"Markdown emphasis", "It is _really_ *fast*.", "It is really fast."},
		{"Markdown indented by the XML", "Topics:\n\n                    - **Antennas**\n                    - Decoding\n\n                    More [here](https://x.example).", "Topics:\n\nAntennas\nDecoding\n\nMore here."},
		{"Markdown with HTML", "**Bold** and <i>italic</i>", "Bold and italic"},
		{"Markdown code", "Run `make test` first.", "Run make test first."},
		{"gender star", "Teilnehmer*innen und **Leiter*innen**", "Teilnehmer*innen und Leiter*innen"},
		{"wrapping quotes", `"An abstract in quotes."`, "An abstract in quotes."},
		{"escaped wrapping quotes", "&quot;&lt;p&gt;Quoted HTML&lt;/p&gt;&quot;", "Quoted HTML"},
		{"empty quotes", `""`, ""},
		{"escaped empty quotes", "&quot;&quot;", ""},
		{"two quotations", `"Yes" and "no"`, `"Yes" and "no"`},
		{"quotation inside", `"He said "hello" twice"`, `He said "hello" twice`},
		{"C++", "C++", "C++"},
		{"less than", "<1ms", "<1ms"},
		{"comparison", "if a<b then b>a", "if a<b then b>a"},
		{"literal stars", "password=******** and f(**kwargs)", "password=******** and f(**kwargs)"},
		{"generics", "Vec<T> and Option<Box<T>>", "Vec<T> and Option<Box<T>>"},
		{"star", "a*b", "a*b"},
		{"stars", "2*3*4", "2*3*4"},
		{"snake case", "snake_case_names", "snake_case_names"},
		{"dunder", "__init__ and __new__", "__init__ and __new__"},
		{"brackets", "arr[i] (index) and [sic]", "arr[i] (index) and [sic]"},
		{"hard wrap", "A long first line of plain text that was\nwrapped by its writer\n\nsecond paragraph", "A long first line of plain text that was wrapped by its writer\n\nsecond paragraph"},
		{"short lines", "Bring:\nlaptop\ncharger", "Bring:\nlaptop\ncharger"},
		{"blank", " \r\n ", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := cleanText(tt.in); got != tt.want {
				t.Errorf("cleanText(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if got := cleanText(cleanText(tt.in)); got != cleanText(tt.in) {
				t.Errorf("cleanText not idempotent on %q: %q", tt.in, got)
			}
		})
	}
}

func TestCleanField(t *testing.T) {
	for in, want := range map[string]string{
		"Do You Think That&#x27;s Funny?": "Do You Think That's Funny?",
		"Security &amp; Safety":           "Security & Safety",
		"  Hall\u00a0A ":                  "Hall A",
		"Two\nlines":                      "Two lines",
		"**Bold** title":                  "Bold title",
		"&quot;Quoted&quot;":              "Quoted",
		"C++ & <templates>":               "C++ & <templates>",
		"":                                "",
	} {
		if got := cleanField(in); got != want {
			t.Errorf("cleanField(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCleanTextBounded: crafted Markdown and HTML are read in bounded
// time (the parser is given at most maxMarkdownBytes, few brackets and
// shallow quotes).
func TestCleanTextBounded(t *testing.T) {
	var nested strings.Builder
	for i := 0; i < 150; i++ {
		nested.WriteString(strings.Repeat("  ", i) + "- a\n")
	}
	for name, in := range map[string]string{
		"unclosed links":   "**x** " + strings.Repeat("[a](", 4000),
		"nested list":      "**x**\n" + nested.String(),
		"nested quotes":    strings.Repeat("> ", 8000) + "**x**",
		"emphasis":         strings.Repeat("*a _b ", 2700),
		"long Markdown":    strings.Repeat("**a** [b](http://c) ", 20000),
		"unclosed tags":    strings.Repeat("<a ", 100000),
		"nested elements":  strings.Repeat("<b><i>", 50000),
		"escaped escapes":  strings.Repeat("&amp;lt;", 100000),
		"ampersand chains": "&" + strings.Repeat("amp;", 200000),
	} {
		start := time.Now()
		cleanText(cleanText(in))
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s (%d bytes): %v", name, len(in), d)
		}
	}
}

// markupLeft finds what cleaning must not leave in a talk's text.
var markupLeft = regexp.MustCompile(`(?i)</?(?:p|a|br|li|ul|ol|div|b|i|em|strong|span)(?:\s[^<>]*)?/?>|&(?:[a-z]{2,8}|#[0-9]{1,6}|#x[0-9a-f]{1,6});|\*\*\S|\]\(https?:|(?m:^#{1,6} \S)`)

// TestGoldensClean: no golden of testdata/formats holds a tag, an entity
// or Markdown syntax.
func TestGoldensClean(t *testing.T) {
	goldens, err := filepath.Glob(filepath.Join(formatsDir, "*.golden"))
	if err != nil || len(goldens) == 0 {
		t.Fatalf("no goldens: %v", err)
	}
	for _, g := range goldens {
		data, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(l, "warning ") {
				continue
			}
			if m := markupLeft.FindString(l); m != "" {
				t.Errorf("%s:%d: %q left in %q", g, i+1, m, l)
			}
		}
	}
}

// TestSharedDatasetsClean: every text of every talk read from the real
// datasets is clean.
func TestSharedDatasetsClean(t *testing.T) {
	dir := sharedDataset(t, ".")
	var files []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(p, ".md") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	// A pair of "**" around words is Markdown; a lone one is text
	// (Python's **kwargs, a masked password).
	leftover := regexp.MustCompile(`(?i)<p>|&amp;|\*\*[^\s*][^*\n]*[^\s*]\*\*|\]\(http`)
	talks := 0
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := ReadFile(p, data, Options{TimeZone: time.UTC})
		if err != nil {
			t.Logf("%s: %v (not a talk file)", p, err)
			continue
		}
		talks += len(got)
		for _, tk := range got {
			texts := []string{tk.Title, tk.Abstract, tk.Description, tk.Track, tk.Room}
			for _, s := range tk.Speakers {
				texts = append(texts, s.Name)
			}
			for _, s := range texts {
				if m := leftover.FindString(s); m != "" {
					t.Errorf("%s: talk %q: %q left in %q", p, tk.Title, m, s)
				}
			}
		}
	}
	if talks == 0 {
		t.Fatalf("no talk read from %s", dir)
	}
	t.Logf("%d talks of %d files", talks, len(files))
}

func FuzzCleanText(f *testing.F) {
	for _, s := range []string{
		"Security &amp; Safety", "&quot;&lt;p&gt;x&lt;/p&gt;&quot;", "**a** [b](http://c)", "<p>a</p><ul><li>b</li></ul>",
		"- a\n- b\n\n1. c", "C++ <1ms a*b snake_case", `"x" and "y"`, "&amp;amp;lt;b&amp;amp;gt;", "> q\n\n```\ncode\n```",
		"Topics:\n\n    - **A**\n    - B", "<pre>a\n  b</pre>", "# h\n\ntext", "\"\"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		once := cleanText(s)
		if twice := cleanText(once); twice != once {
			t.Fatalf("cleanText(%q) = %q, but cleanText of that = %q", s, once, twice)
		}
		field := cleanField(s)
		if again := cleanField(field); again != field {
			t.Fatalf("cleanField(%q) = %q, but cleanField of that = %q", s, field, again)
		}
		if strings.Contains(field, "\n") {
			t.Fatalf("cleanField(%q) = %q: not one line", s, field)
		}
	})
}
