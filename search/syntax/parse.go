package syntax

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Query is a user's query as typed into a search box, split into its parts.
// Parsing never fails: anything that is not recognisable syntax is a plain
// word, so `C++`, `<1ms`, `torch.compile` or an unbalanced quote still
// search for what was typed.
type Query struct {
	Words    []string // plain words: every one counts, none is required
	Phrases  []string // "quoted phrases": required, words adjacent
	Fields   []Field
	Excludes []string // -word or -"phrase": talks containing it are dropped
	Raw      string   // the input, for suggestions that keep its form
}

// Field is a `prefix:value` part of a query.
type Field struct {
	Prefix string // one of the FieldPrefixes keys
	Value  string
	Phrase bool // the value was quoted
}

// FieldPrefixes maps what a user may type before a colon to the canonical
// prefix; other `x:` forms (`torch.compile:`, `http:`) stay plain words.
var FieldPrefixes = map[string]string{
	"title":    "title",
	"speaker":  "speaker",
	"speakers": "speaker",
	"by":       "speaker",
	"track":    "track",
	"abstract": "abstract",
}

// empty says whether the query asks for nothing in particular, which lists
// every talk.
func (p Query) empty() bool {
	return len(p.Words) == 0 && len(p.Phrases) == 0 && len(p.Fields) == 0 && len(p.Excludes) == 0
}

// parseQuery splits user input into words, phrases, field clauses and
// exclusions. A quote left open runs to the end of the input.
func Parse(s string) Query {
	s = strings.ToValidUTF8(s, " ")
	p := Query{Raw: s}
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			i += size
			continue
		}
		// A leading '-' excludes, but only when something follows it
		// that is not another dash: "-", "--" and "-1" stay words.
		negate := false
		if r == '-' && i+1 < len(s) && s[i+1] != '-' && !isDigit(s[i+1]) && !isSpaceByte(s[i+1]) {
			negate = true
			i++
		}
		// field prefix
		prefix := ""
		if name, rest, ok := cutPrefix(s[i:]); ok {
			prefix = name
			i = len(s) - len(rest)
		}
		var val string
		quoted := false
		if i < len(s) && s[i] == '"' {
			end := strings.IndexByte(s[i+1:], '"')
			if end < 0 {
				val = s[i+1:]
				i = len(s)
			} else {
				val = s[i+1 : i+1+end]
				i += end + 2
			}
			quoted = true
		} else {
			j := i
			for j < len(s) {
				r, size := utf8.DecodeRuneInString(s[j:])
				if unicode.IsSpace(r) {
					break
				}
				j += size
			}
			val = s[i:j]
			i = j
		}
		val = strings.Join(strings.Fields(val), " ")
		if quoted {
			// Quotes are never part of a phrase; strays inside are noise.
			val = strings.Join(strings.Fields(strings.ReplaceAll(val, `"`, " ")), " ")
		} else {
			val = strings.Trim(val, `"`)
		}
		if val == "" {
			continue
		}
		switch {
		case negate:
			p.Excludes = append(p.Excludes, val)
		case prefix != "":
			p.Fields = append(p.Fields, Field{Prefix: prefix, Value: val, Phrase: quoted})
		case quoted && strings.ContainsRune(val, ' '):
			p.Phrases = append(p.Phrases, val)
		default:
			// A quoted single word is just that word.
			p.Words = append(p.Words, val)
		}
	}
	return p
}

// cutPrefix recognises `title:`, `speaker:`, … at the start of s, followed
// by a value (a bare `title:` is a word).
func cutPrefix(s string) (name, rest string, ok bool) {
	colon := strings.IndexByte(s, ':')
	if colon <= 0 || colon+1 >= len(s) || isSpaceByte(s[colon+1]) {
		return "", s, false
	}
	name, ok = FieldPrefixes[strings.ToLower(s[:colon])]
	if !ok {
		return "", s, false
	}
	return name, s[colon+1:], true
}

func isDigit(b byte) bool     { return b >= '0' && b <= '9' }
func isSpaceByte(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }
