package analysis

import (
	"bytes"
	"fmt"
	"regexp"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	bleveunicode "github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/registry"
	"github.com/kljensen/snowball/english"
	"github.com/maypok86/otter/v2"
)

// The talk analyzers and their parts, registered in Bleve's registry under
// our own names. The mapping stores only these names, so any binary that
// opens a persisted index must import this package; a change to any of
// them must bump MappingVersion.
const (
	// AnalyzerName analyses title, abstract and speakers: the pipeline below
	// ending with the snowball stemmer. Queries run through it too.
	AnalyzerName = "talk_en"

	TokenizerName       = "talk_tokenizer"
	NormalizeFilterName = "talk_normalize"
	StopFilterName      = "talk_stop"
	// SnowballFilterName is our wrapper of github.com/kljensen/snowball;
	// Bleve already owns "stemmer_snowball" and "stemmer_en_snowball".
	SnowballFilterName = "talk_snowball_en"
)

// The pipeline, and why each step exists:
//
//  1. talk_tokenizer: Bleve's unicode (UAX#29) tokenizer (segment.go makes
//     its tokens faster), then technical
//     tokens are repaired. "C++" becomes "cpp" (the tokenizer alone keeps a
//     lone "c", which matches every "C" in the corpus). Words joined by
//     "-", "/", "." or "_" without spaces (all-to-all, KV-cache,
//     torch.compile, AI/ML, py_limited_api) are emitted as their parts at
//     consecutive positions, so "compile" finds torch.compile and the
//     query "torch.compile" becomes the phrase "torch compile";
//     "KV-cache", "KV cache" and "KV caching" give the same terms. Parts are
//     marked (Type Shingle) so the stop filter keeps them: "all-to-all"
//     must stay findable. A compound of single letters (I/O, e.g.) is one
//     token ("io", "eg"). Numbers keep their dots (2.5, v0.6.0).
//  2. possessive_en: "Monarch’s" is "monarch".
//  3. talk_normalize: acronym plurals lose their "s" before lower-casing
//     (GPUs, LLMs, B300s; snowball would keep "gpus"), lower-cases, maps
//     spellings of one thing to one term (float8 → fp8, K8s → kubernetes),
//     and adds the family of a model variant at the same position
//     (MI300X also as mi300, NVFP4 also as fp4) so the family name finds it.
//  4. talk_stop: a short list of function words (not "all", "up", "out",
//     "no": they carry meaning in this field), never applied to compound
//     parts, and not at all when every token is a stop word (the query
//     "to be or" still searches for something). A removed word leaves a
//     position gap, so the phrase "mixture of experts" still matches the
//     text "Mixture-of-Experts".
//  5. talk_snowball_en: the snowball English stemmer, but not for terms
//     with digits (fp8, 1ms, mi300 are names, not words).
//
// No compound token (e.g. "kv-cache" as one term) is emitted besides the
// parts: a query "KV-cache" must match a text saying "KV cache" also when
// every query term is required.
func init() {
	must := func(err error) {
		if err != nil {
			panic(fmt.Sprintf("register talk analysis: %v", err))
		}
	}
	must(registry.RegisterTokenizer(TokenizerName, func(map[string]interface{}, *registry.Cache) (analysis.Tokenizer, error) {
		return newTalkTokenizer(), nil
	}))
	must(registry.RegisterTokenFilter(NormalizeFilterName, func(map[string]interface{}, *registry.Cache) (analysis.TokenFilter, error) {
		return normalizeFilter{}, nil
	}))
	must(registry.RegisterTokenFilter(StopFilterName, func(map[string]interface{}, *registry.Cache) (analysis.TokenFilter, error) {
		return stopFilter{}, nil
	}))
	must(registry.RegisterTokenFilter(SnowballFilterName, func(map[string]interface{}, *registry.Cache) (analysis.TokenFilter, error) {
		return snowballFilter{newStemCache()}, nil
	}))
	// Bleve builds an analyzer once per index mapping (its registry cache
	// is the mapping's), so every index, and so every generation a server
	// serves, has its own stem cache, dropped with the index.
	must(registry.RegisterAnalyzer(AnalyzerName, func(map[string]interface{}, *registry.Cache) (analysis.Analyzer, error) {
		return NewAnalyzer(), nil
	}))
}

// NewAnalyzer returns the talk analyzer (AnalyzerName) with a stem cache
// of its own. It is safe for concurrent use.
func NewAnalyzer() *analysis.DefaultAnalyzer {
	return newAnalyzer(newStemCache())
}

func newAnalyzer(stems *stemCache) *analysis.DefaultAnalyzer {
	return &analysis.DefaultAnalyzer{
		Tokenizer:    newTalkTokenizer(),
		TokenFilters: []analysis.TokenFilter{en.NewPossessiveFilter(), normalizeFilter{}, stopFilter{}, snowballFilter{stems}},
	}
}

// compoundPart marks a token that is one part of a joined compound
// (all-to-all). Bleve has no free flag on a token; Shingle ("a token made of
// several words") is unused by anything in our pipeline or in indexing.
const compoundPart = analysis.Shingle

type talkTokenizer struct {
	base *bleveunicode.UnicodeTokenizer
}

func newTalkTokenizer() talkTokenizer {
	return talkTokenizer{base: bleveunicode.NewUnicodeTokenizer()}
}

func (t talkTokenizer) Tokenize(input []byte) analysis.TokenStream {
	raw := uaxWords(t.base, input)
	for _, tok := range raw {
		joinLanguageSuffix(input, tok)
	}
	out := make(analysis.TokenStream, 0, len(raw)+len(raw)/8)
	for i := 0; i < len(raw); {
		j := i
		for j+1 < len(raw) && joinedBySeparator(input, raw[j], raw[j+1]) {
			j++
		}
		if j == i && !hasIdentifierSeparator(raw[i].Term) {
			out = append(out, raw[i]) // the common case: a plain word
			i++
			continue
		}
		var parts analysis.TokenStream
		for _, tok := range raw[i : j+1] {
			parts = append(parts, splitIdentifier(tok)...)
		}
		out = append(out, markCompound(parts)...)
		i = j + 1
	}
	for i, tok := range out {
		tok.Position = i + 1
	}
	return out
}

// joinLanguageSuffix turns the "c" of "C++" into "cpp" and of "C#" into
// "csharp", covering the whole text so highlighting marks "C++".
func joinLanguageSuffix(input []byte, tok *analysis.Token) {
	if len(tok.Term) != 1 || (tok.Term[0] != 'c' && tok.Term[0] != 'C') {
		return
	}
	rest := input[tok.End:]
	switch {
	case bytes.HasPrefix(rest, []byte("++")):
		tok.Term, tok.End = []byte("cpp"), tok.End+2
	case bytes.HasPrefix(rest, []byte("#")):
		tok.Term, tok.End = []byte("csharp"), tok.End+1
	}
}

// joinedBySeparator says whether b follows a with exactly one "-" or "/"
// between them, as in "all-to-all" or "AI/ML" (the tokenizer splits those
// but keeps "." and "_" inside a token).
func joinedBySeparator(input []byte, a, b *analysis.Token) bool {
	return b.Start == a.End+1 && (input[a.End] == '-' || input[a.End] == '/')
}

// hasIdentifierSeparator and hasDigit run on every token: plain loops are
// several times faster than bytes.ContainsAny here.
func hasIdentifierSeparator(term []byte) bool {
	return bytes.IndexByte(term, '.') >= 0 || bytes.IndexByte(term, '_') >= 0
}

// hasDigit reports an ASCII digit: the digits of model names and units.
func hasDigit(term []byte) bool {
	for _, c := range term {
		if '0' <= c && c <= '9' {
			return true
		}
	}
	return false
}

// splitIdentifier splits a token on "." and "_" (torch.compile,
// TORCH_TARGET_VERSION) when every part has a letter; numbers and versions
// such as 2.5 or v0.6.0 stay whole.
func splitIdentifier(tok *analysis.Token) analysis.TokenStream {
	if !hasIdentifierSeparator(tok.Term) {
		return analysis.TokenStream{tok}
	}
	isSep := func(r rune) bool { return r == '.' || r == '_' }
	var parts analysis.TokenStream
	start := -1
	for i := 0; i <= len(tok.Term); i++ {
		if i < len(tok.Term) && !isSep(rune(tok.Term[i])) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			term := tok.Term[start:i]
			if !bytes.ContainsFunc(term, unicode.IsLetter) {
				return analysis.TokenStream{tok}
			}
			parts = append(parts, &analysis.Token{
				Term: term, Start: tok.Start + start, End: tok.Start + i,
				Type: analysis.AlphaNumeric,
			})
			start = -1
		}
	}
	if len(parts) == 0 {
		return analysis.TokenStream{tok}
	}
	return parts
}

// markCompound marks the parts of a compound as such, or joins a compound
// made only of single letters (I/O, e.g, U.S) into one token.
func markCompound(parts analysis.TokenStream) analysis.TokenStream {
	if len(parts) < 2 {
		return parts
	}
	singles := true
	for _, p := range parts {
		r, size := utf8.DecodeRune(p.Term)
		if size != len(p.Term) || !unicode.IsLetter(r) {
			singles = false
			break
		}
	}
	if singles {
		var term []byte
		for _, p := range parts {
			term = append(term, p.Term...)
		}
		return analysis.TokenStream{{
			Term: term, Start: parts[0].Start, End: parts[len(parts)-1].End,
			Type: analysis.AlphaNumeric,
		}}
	}
	for _, p := range parts {
		p.Type = compoundPart
	}
	return parts
}

// sameTerm maps spellings of one thing to one term, in both directions
// since the same analyzer runs on the query. The plurals are acronyms typed
// in lower case ("gpus"), which isAcronymPlural cannot recognise and
// snowball leaves alone.
var sameTerm = map[string]string{
	"float4":   "fp4",
	"float8":   "fp8",
	"float16":  "fp16",
	"float32":  "fp32",
	"bfloat16": "bf16",
	"k8s":      "kubernetes",
	"gpus":     "gpu",
	"cpus":     "cpu",
	"tpus":     "tpu",
	"npus":     "npu",
	"llms":     "llm",
	"slms":     "slm",
	"vlms":     "vlm",
	"apis":     "api",
	"sdks":     "sdk",
	"dnns":     "dnn",
	"cnns":     "cnn",
	"moes":     "moe",
}

var (
	// modelVariant is a product name with a one-letter variant suffix
	// (mi300x, mi300a, gpt4o, sm90a); the family is mi300, gpt4, sm90.
	modelVariant = regexp.MustCompile(`^([a-z]+[0-9]+)[a-z]$`)
	// vendorFloat is a vendor's flavour of a float format: nvfp4, mxfp8.
	vendorFloat = regexp.MustCompile(`^(?:nv|mx)(fp[0-9]+)$`)
)

type normalizeFilter struct{}

func (normalizeFilter) Filter(input analysis.TokenStream) analysis.TokenStream {
	out := make(analysis.TokenStream, 0, len(input)+4)
	for _, tok := range input {
		plural := IsAcronymPlural(tok.Term)
		tok.Term = lower(tok.Term)
		if same, ok := sameTerm[string(tok.Term)]; ok {
			tok.Term = []byte(same)
		} else if plural {
			tok.Term = tok.Term[:len(tok.Term)-1]
		}
		out = append(out, tok)
		if family := variantFamily(tok.Term); family != "" {
			extra := *tok
			extra.Term = []byte(family)
			out = append(out, &extra)
		}
	}
	return out
}

// lower returns term lower-cased. Terms are slices of the analysed text,
// which Bleve may still use (stored values), so a term with capitals is
// copied rather than edited in place; most terms have none and cost nothing.
func lower(term []byte) []byte {
	for i, c := range term {
		if c >= 0x80 {
			return bytes.ToLower(term)
		}
		if 'A' <= c && c <= 'Z' {
			low := make([]byte, len(term))
			copy(low, term[:i])
			for j := i; j < len(term); j++ {
				c := term[j]
				if c >= 0x80 {
					return bytes.ToLower(term)
				}
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				low[j] = c
			}
			return low
		}
	}
	return term
}

// IsAcronymPlural: an upper-case acronym, possibly with digits, followed by
// a lower-case "s" (GPUs, LLMs, APIs, B300s).
func IsAcronymPlural(term []byte) bool {
	n := len(term)
	if n < 3 || term[n-1] != 's' || term[0] < 'A' || term[0] > 'Z' {
		return false
	}
	for _, c := range term[1 : n-1] {
		if (c < 'A' || c > 'Z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

func variantFamily(term []byte) string {
	if !hasDigit(term) {
		return "" // both patterns need a digit; skip the regexps for words
	}
	if m := vendorFloat.FindSubmatch(term); m != nil {
		return string(m[1])
	}
	if m := modelVariant.FindSubmatch(term); m != nil {
		return string(m[1])
	}
	return ""
}

type stopFilter struct{}

// Filter keeps the tokens in input's own array: the stream is the previous
// filter's, read by no one else, and a text of stop words only writes no
// token, so input is whole when it is returned as it came.
func (stopFilter) Filter(input analysis.TokenStream) analysis.TokenStream {
	out := input[:0]
	for _, tok := range input {
		if tok.Type == compoundPart || !stopWords[string(tok.Term)] {
			out = append(out, tok)
		}
	}
	if len(out) == 0 {
		return input
	}
	return out
}

type snowballFilter struct{ stems *stemCache }

func (f snowballFilter) Filter(input analysis.TokenStream) analysis.TokenStream {
	for _, tok := range input {
		if tok.KeyWord || hasDigit(tok.Term) {
			continue
		}
		tok.Term = f.stems.stem(tok.Term)
	}
	return input
}

// stemCache caches english.Stem, which allocates and dominated the
// analysis profile: a corpus repeats a few thousand words.
// It is bounded by bytes and evicts (otter's W-TinyLFU, as every cache of
// the program), so distinct query words, which a crowd or an attacker can
// send without end, cost at most its bound and never push out the
// corpus's words, which are asked for again and again.
type stemCache struct {
	c *otter.Cache[string, string]
}

// StemCacheBytes bounds one stem cache: keys, stems and otter's overhead
// per entry, about 40,000 words.
const StemCacheBytes = 4 << 20

// stemEntryOverhead is what otter and the two string headers cost per
// word beyond its bytes, measured roughly: it keeps the bound honest for
// short words.
const stemEntryOverhead = 96

func newStemCache() *stemCache {
	return &stemCache{c: otter.Must(&otter.Options[string, string]{
		MaximumWeight: StemCacheBytes,
		Weigher: func(k, v string) uint32 {
			return uint32(len(k) + len(v) + stemEntryOverhead)
		},
	})}
}

func (c *stemCache) stem(term []byte) []byte {
	s, ok := c.c.GetIfPresent(string(term))
	if !ok {
		word := string(term)
		s = english.Stem(word, true)
		c.c.Set(word, s)
	}
	if s != string(term) {
		return []byte(s) // a copy: later filters may edit a term in place
	}
	return term // most words are their own stem: no copy
}

// len is the number of words kept, once pending evictions are done.
func (c *stemCache) len() int {
	c.c.CleanUp()
	return c.c.EstimatedSize()
}

func termsOf(ts analysis.TokenStream) []string {
	terms := make([]string, len(ts))
	for i, tok := range ts {
		terms[i] = string(tok.Term)
	}
	return terms
}
