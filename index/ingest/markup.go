package ingest

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
	gmhtml "github.com/yuin/goldmark/renderer/html"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/analysis"
)

// KindOf maps a source's session type onto index.Kinds: FOSDEM's types
// (maintrack, devroom, keynote, lightningtalk, bof, workshop, junior …),
// frab's (lecture, workshop, podium …) and pretalx submission types by name
// ("Talk (30 min)", "Hands-on Workshop", "Lightning Talk"). No type at all is
// a regular talk; a type that fits none of the kinds is other.
func KindOf(sourceType string) index.Kind {
	words := analysis.MatchWords(sourceType)
	if len(words) == 0 {
		return index.KindTalk
	}
	has := func(subs ...string) bool {
		for _, w := range words {
			for _, s := range subs {
				if strings.Contains(w, s) {
					return true
				}
			}
		}
		return false
	}
	f := " " + strings.Join(words, " ") + " "
	switch {
	case has("keynote"):
		return index.KindKeynote
	case has("lightning"):
		return index.KindLightning
	case has("workshop", "tutorial", "junior", "handson") || strings.Contains(f, " hands on ") || strings.Contains(f, " lab "):
		return index.KindWorkshop
	case has("panel", "fireside"):
		return index.KindPanel
	case has("bof", "meetup") || strings.Contains(f, " birds of a feather "):
		return index.KindBOF
	case has("poster"):
		return index.KindPoster
	case has("sponsor"):
		return index.KindSponsor
	case has("break", "lunch", "coffee"):
		return index.KindBreak
	case has("talk", "lecture", "presentation", "maintrack", "devroom", "session", "track"):
		return index.KindTalk
	}
	return index.KindOther
}

// blockElements end a paragraph of text; listLike end a line within one.
var blockElements = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true,
	atom.H5: true, atom.H6: true, atom.Ul: true, atom.Ol: true, atom.Pre: true, atom.Blockquote: true,
	atom.Table: true, atom.Section: true, atom.Article: true, atom.Dl: true, atom.Hr: true,
}

var lineElements = map[atom.Atom]bool{atom.Li: true, atom.Br: true, atom.Tr: true, atom.Dt: true, atom.Dd: true}

// htmlText turns an HTML fragment into the text form of Talk.Abstract:
// paragraphs separated by "\n\n", list items and <br> as "\n", runs of
// blanks as one space, entities decoded, scripts and styles dropped.
// Text without any element is plain text: its blank lines are paragraphs.
func htmlText(s string) string {
	if strings.TrimSpace(s) == "" {
		return ""
	}
	nodes, err := html.ParseFragment(strings.NewReader(s), &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body})
	if err != nil {
		return plainText(s)
	}
	hasElement := false
	for _, n := range nodes {
		if n.Type == html.ElementNode {
			hasElement = true
		}
	}
	if !hasElement {
		// Entities still need decoding: the parser gave text nodes.
		var b strings.Builder
		for _, n := range nodes {
			if n.Type == html.TextNode {
				b.WriteString(n.Data)
			}
		}
		return plainText(b.String())
	}
	w := &textWriter{}
	for _, n := range nodes {
		w.walk(n)
	}
	return w.text()
}

// textWriter collects paragraphs of lines of words.
type textWriter struct {
	paras [][]string // finished paragraphs, each a list of lines
	lines []string   // finished lines of the current paragraph
	words []string   // words of the current line
	pre   int        // depth of <pre>: its line breaks are kept
	// glue: the next word continues the last one (no blank between them
	// in the source, as in "<b>Py</b>Torch").
	glue bool
}

func (w *textWriter) walk(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		w.addText(n.Data)
		return
	case html.CommentNode, html.DoctypeNode:
		return
	case html.ElementNode:
		switch n.DataAtom {
		case atom.Script, atom.Style, atom.Head, atom.Template:
			return
		case atom.Img:
			for _, a := range n.Attr {
				if a.Key == "alt" && strings.TrimSpace(a.Val) != "" {
					w.addText(" " + a.Val + " ")
				}
			}
			return
		}
	}
	block, line := blockElements[n.DataAtom], lineElements[n.DataAtom]
	if n.Type == html.ElementNode && block {
		w.endParagraph()
	}
	if n.Type == html.ElementNode && n.DataAtom == atom.Li {
		w.endLine()
	}
	if n.DataAtom == atom.Pre {
		w.pre++
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.walk(c)
	}
	if n.DataAtom == atom.Pre {
		w.pre--
	}
	switch {
	case n.Type == html.ElementNode && block:
		w.endParagraph()
	case n.Type == html.ElementNode && line:
		w.endLine()
	}
}

func (w *textWriter) addText(s string) {
	if w.pre > 0 {
		for i, l := range strings.Split(s, "\n") {
			if i > 0 {
				w.endLine()
			}
			w.addWords(l)
		}
		return
	}
	// A blank line in the text of an HTML fragment is a paragraph break
	// to its writer, who mixed plain paragraphs with a link or two.
	for i, part := range blankLine.Split(s, -1) {
		if i > 0 {
			w.endParagraph()
		}
		w.addWords(part)
	}
}

var blankLine = regexp.MustCompile(`\n[ \t\r\f]*\n`)

func (w *textWriter) addWords(s string) {
	s = strings.Map(func(r rune) rune {
		if r == '\u00a0' || r == '\u200b' || r == '\ufeff' {
			return ' '
		}
		return r
	}, s)
	fields := strings.Fields(s)
	if len(fields) == 0 {
		if s != "" {
			w.glue = false
		}
		return
	}
	startsBlank := s[0] == ' ' || s[0] == '\t' || s[0] == '\n' || s[0] == '\r'
	for i, f := range fields {
		if i == 0 && w.glue && !startsBlank && len(w.words) > 0 {
			w.words[len(w.words)-1] += f
			continue
		}
		w.words = append(w.words, f)
	}
	last := s[len(s)-1]
	w.glue = !(last == ' ' || last == '\t' || last == '\n' || last == '\r')
}

func (w *textWriter) endLine() {
	if len(w.words) > 0 {
		w.lines = append(w.lines, strings.Join(w.words, " "))
		w.words = nil
	}
	w.glue = false
}

func (w *textWriter) endParagraph() {
	w.endLine()
	if len(w.lines) > 0 {
		w.paras = append(w.paras, w.lines)
		w.lines = nil
	}
}

func (w *textWriter) text() string {
	w.endParagraph()
	ps := make([]string, len(w.paras))
	for i, p := range w.paras {
		ps[i] = strings.Join(p, "\n")
	}
	return joinParagraphs(ps)
}

// plainText is text without markup in the Talk.Abstract form: blank-line
// separated paragraphs, hard wraps joined (see joinWrapped).
func plainText(s string) string {
	var ps []string
	for _, p := range paragraphs(splitLines([]byte(s))) {
		ps = append(ps, p.text)
	}
	return joinParagraphs(ps)
}

// markdown renders CommonMark; raw HTML passes through to htmlText, which
// only ever takes its text.
var markdown = goldmark.New(goldmark.WithRendererOptions(gmhtml.WithUnsafe()))

// renderMarkdown turns Markdown into the Talk.Abstract text form.
func renderMarkdown(s string) string {
	if strings.TrimSpace(s) == "" {
		return ""
	}
	var buf bytes.Buffer
	if err := markdown.Convert([]byte(s), &buf); err != nil {
		return plainText(s)
	}
	return htmlText(buf.String())
}
