package synonyms

import (
	"cmp"
	"encoding/binary"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/talksearch/talksearch/index"
)

// Aliases are the short forms people type for a longer name: "postgres"
// for PostgreSQL, "k8s" for Kubernetes, "js" for JavaScript, "rpi" for
// Raspberry Pi. No list holds them all, so they are mined from the corpus
// as acronyms are. A short form is an alias of a long one when it
//   - abbreviates it, in one of three shapes, from the surest: a prefix
//     ("postgres", "mongo") or a numeronym ("k8s", "i18n"); the initials of
//     its words, each followed by more of that word's letters ("rpi" for
//     Raspberry Pi, "js" for JavaScript, "wasm" for WebAssembly: a name
//     the corpus writes in CamelCase counts as its humps); the initial then
//     any of its letters ("pg");
//   - is no English word: "use" is not short for "user", nor "contain" for
//     "container";
//   - is written beside it: in at least aliasMinBoth talks, a share of the
//     talks that use the short form, and so many times as often as two
//     words of their frequencies would meet by chance that "dev" is not
//     taken for "devroom", which every talk of a devroom writes. The loose
//     third shape needs much more of both (shapeNeeds);
//   - prefers it: of the long forms that pass, the one written beside it
//     in the most talks; a tie keeps none, unless one of the tied is
//     written twice as often as any other.

// Alias is one short form and the long form it stands for, with the
// corpus's evidence.
type Alias struct {
	// Short and Long as the corpus writes them most often.
	Short, Long string
	// Both is the number of talks that write both; ShortTalks and LongTalks
	// the talks that write each.
	Both, ShortTalks, LongTalks int
}

// String is the evidence, for `talksearch synonyms --mined`.
func (a Alias) String() string {
	return a.Short + " → " + a.Long + " (both in " + strconv.Itoa(a.Both) + " talks; " +
		a.Short + " in " + strconv.Itoa(a.ShortTalks) + ", " + a.Long + " in " + strconv.Itoa(a.LongTalks) + ")"
}

const (
	aliasMinBoth      = 3
	aliasMinLongTalks = 5
	aliasMaxShort     = 8 // letters of a short form ("postgres")
)

// Shapes of abbreviation, surest first.
const (
	shapePrefix   = iota // prefix or numeronym
	shapeInitials        // initials of the words (or CamelCase humps)
	shapeLetters         // the initial, then any letters
	shapeNone
)

// shapeNeeds are the least share of the short form's talks that also
// write the long form, and the least lift over chance, for each shape.
var shapeNeeds = [...]struct{ share, lift float64 }{
	shapePrefix:   {0.2, 5},
	shapeInitials: {0.2, 5},
	shapeLetters:  {0.6, 20},
}

// MineAliases returns the corpus's aliases (see Aliases above), in the
// order of their short forms, mined from the sample of a large corpus
// that NewThesaurusOf mines (MinedStep).
func MineAliases(talks []index.Talk) []Alias {
	c := index.Whole(talks)
	return mineAliases(c, MinedStep(c.Len()))
}

// mineAliases is MineAliases of every step-th talk of c.
func mineAliases(c index.Slim, step int) []Alias {
	// Words are numbered: a corpus of ten thousand talks has a million
	// pairs of words to weigh, too many to key by strings.
	ids := map[string]int32{"": 0}
	words := []string{""}
	var humps [][]string // a CamelCase word's parts, lower-cased, by number
	var docs minedDocs   // each mined talk's words in order, 0 between fields
	var df []int32
	c.EachEvery(step, func(_ int, t *index.Talk) {
		docs.start()
		for _, text := range []string{t.Title, t.Abstract, t.DescriptionText(), t.Track} {
			for _, w := range strings.FieldsFunc(text, notWordRune) {
				k := strings.ToLower(w)
				id, ok := ids[k]
				if !ok {
					// A copy: k may be a substring of a text that is
					// the caller's scratch (index.Slim.Each).
					k = strings.Clone(k)
					id = int32(len(words))
					ids[k] = id
					words = append(words, k)
					humps = append(humps, nil)
					df = append(df, 0)
				}
				if humps[id-1] == nil && isCamelName(w) {
					humps[id-1] = strings.Fields(splitCamel(w))
				}
				docs.add(id)
			}
			docs.add(0)
		}
	})
	lastSeen := make([]int32, len(words))
	var d []int32 // the talk's words, decoded from docs
	for i := range docs.len() {
		d = docs.words(i, d)
		for _, id := range d {
			if id != 0 && lastSeen[id] != int32(i+1) {
				lastSeen[id] = int32(i + 1)
				df[id-1]++
			}
		}
	}
	dfOf := func(id int32) int { return int(df[id-1]) }
	isShort := make([]bool, len(words))
	for id := int32(1); id < int32(len(words)); id++ {
		w := words[id]
		isShort[id] = len(w) >= 2 && len(w) <= aliasMaxShort && dfOf(id) >= aliasMinBoth &&
			strings.IndexFunc(w, unicode.IsLetter) >= 0 && !IsEnglishWord(w)
	}
	// A long form is one word (its number) or two (a number past
	// len(words), from bigramIDs).
	bigramIDs := map[[2]int32]int32{}
	var bigrams [][2]int32
	longWords := func(l int32) []string {
		if int(l) < len(words) {
			return []string{words[l]}
		}
		b := bigrams[int(l)-len(words)]
		return []string{words[b[0]], words[b[1]]}
	}
	key := func(s, l int32) uint64 { return uint64(s)<<32 | uint64(uint32(l)) }
	// A pair of a short form and a long one is looked up once per talk
	// that has both: its shape (computed once), the last talk counted and
	// the talks counted, in one place.
	type pairStat struct {
		stamp, both int32
		shape       int8
	}
	pairAt := map[uint64]int32{}
	var pairs []pairStat
	// Each two-word long form's talks, and the last talk counted.
	var bigramDF, bigramSeen []int32
	for i := range docs.len() {
		d = docs.words(i, d)
		stamp := int32(i + 1)
		var shorts []int32
		byInitial := map[byte][]int32{}
		for j, id := range d {
			if id == 0 {
				continue
			}
			w := words[id]
			if isShort[id] && lastSeen[id] != -stamp {
				lastSeen[id] = -stamp
				shorts = append(shorts, id)
			}
			if dfOf(id) >= aliasMinLongTalks {
				byInitial[w[0]] = append(byInitial[w[0]], id)
			}
			if j+1 < len(d) && d[j+1] != 0 && dfOf(id) >= aliasMinLongTalks && dfOf(d[j+1]) >= aliasMinLongTalks &&
				!bigramStop[w] && !bigramStop[words[d[j+1]]] {
				bg := [2]int32{id, d[j+1]}
				bid, ok := bigramIDs[bg]
				if !ok {
					bid = int32(len(words) + len(bigrams))
					bigramIDs[bg] = bid
					bigrams = append(bigrams, bg)
					bigramDF = append(bigramDF, 0)
					bigramSeen = append(bigramSeen, 0)
				}
				// Two-word long forms are counted where they stand
				// together.
				if b := int(bid) - len(words); bigramSeen[b] != stamp {
					bigramSeen[b] = stamp
					bigramDF[b]++
				}
				byInitial[w[0]] = append(byInitial[w[0]], bid)
			}
		}
		for _, s := range shorts {
			for _, l := range byInitial[words[s][0]] {
				if l == s {
					continue
				}
				k := key(s, l)
				at, ok := pairAt[k]
				if !ok {
					var hs []string
					if int(l) < len(words) {
						hs = humps[l-1]
					}
					at = int32(len(pairs))
					pairAt[k] = at
					pairs = append(pairs, pairStat{shape: int8(shapeOf(words[s], longWords(l), hs))})
				}
				p := &pairs[at]
				if p.stamp == stamp {
					continue
				}
				p.stamp = stamp
				if p.shape != shapeNone {
					p.both++
				}
			}
		}
	}
	longDF := func(l int32) int {
		if int(l) < len(words) {
			return dfOf(l)
		}
		return int(bigramDF[int(l)-len(words)])
	}
	type choice struct {
		long  []int32
		count int32
	}
	best := map[int32]*choice{}
	n := float64(docs.len())
	for k, at := range pairAt {
		s, l := int32(k>>32), int32(uint32(k))
		c := pairs[at].both
		if pairs[at].shape == shapeNone {
			continue
		}
		need := shapeNeeds[pairs[at].shape]
		ds, dl := float64(dfOf(s)), float64(longDF(l))
		if c < aliasMinBoth || dl < aliasMinLongTalks || float64(c) < need.share*ds || float64(c)*n < need.lift*ds*dl {
			continue
		}
		switch b := best[s]; {
		case b == nil || c > b.count:
			best[s] = &choice{[]int32{l}, c}
		case c == b.count:
			b.long = append(b.long, l)
		}
	}
	var out []Alias
	for s, b := range best {
		// A tie keeps none (two meanings), unless one long form is how the
		// corpus mostly writes it: "pg" beside "postgres" and "PostgreSQL"
		// alike is PostgreSQL, written four times as often.
		slices.SortFunc(b.long, func(x, y int32) int { return cmp.Compare(longDF(y), longDF(x)) })
		if len(b.long) > 1 && longDF(b.long[0]) < 2*longDF(b.long[1]) {
			continue
		}
		out = append(out, Alias{Short: words[s], Long: strings.Join(longWords(b.long[0]), " "),
			Both: int(b.count), ShortTalks: dfOf(s), LongTalks: longDF(b.long[0])})
	}
	slices.SortFunc(out, func(a, b Alias) int { return cmp.Compare(a.Short, b.Short) })
	out = withoutNames(c, step, out)
	spellings(c, step, out)
	return out
}

// withoutNames drops the truncations (aliases whose short form is a prefix
// of the long one) that the corpus mostly writes as a name of their own:
// in capitals, an acronym of something else ("SER", SIP Express Router, is
// no truncation of server); or capitalised after a capitalised word, as
// the last word of a name ("Kaitai Struct" is no truncation of
// structured).
func withoutNames(c index.Slim, step int, aliases []Alias) []Alias {
	type usage struct{ all, caps, named int }
	use := map[string]*usage{}
	for _, a := range aliases {
		if strings.HasPrefix(strings.ToLower(a.Long), a.Short) {
			use[a.Short] = &usage{}
		}
	}
	c.EachEvery(step, func(_ int, t *index.Talk) {
		for _, text := range []string{t.Title, t.Abstract, t.DescriptionText(), t.Track} {
			prevCapital := false
			for start := 0; start < len(text); {
				r, size := utf8.DecodeRuneInString(text[start:])
				if notWordRune(r) {
					start += size
					continue
				}
				end := start + size
				for end < len(text) {
					r, size := utf8.DecodeRuneInString(text[end:])
					if notWordRune(r) {
						break
					}
					end += size
				}
				w, capital := text[start:end], unicode.IsUpper(r)
				if u, ok := use[strings.ToLower(w)]; ok {
					u.all++
					switch {
					case w == strings.ToUpper(w):
						u.caps++
					case capital && prevCapital && text[start-1] == ' ':
						u.named++
					}
				}
				prevCapital = capital
				start = end
			}
		}
	})
	kept := aliases[:0]
	for _, a := range aliases {
		if u, ok := use[a.Short]; ok && (2*u.caps > u.all || 2*u.named > u.all) {
			continue
		}
		kept = append(kept, a)
	}
	return kept
}

// bigramStop are words no two-word name of an alias holds: "platform as"
// is a phrase cut short, not a name.
var bigramStop = map[string]bool{"a": true, "an": true, "and": true, "are": true, "as": true, "at": true, "be": true,
	"by": true, "for": true, "from": true, "in": true, "is": true, "it": true, "of": true, "on": true, "or": true,
	"the": true, "to": true, "we": true, "with": true, "you": true}

// shapeOf says how short abbreviates long, one word or two; humps are
// long's CamelCase parts, if the corpus writes it so.
func shapeOf(short string, words []string, humps []string) int {
	if len(words) == 2 && (strings.HasPrefix(short, words[0]) || strings.HasPrefix(words[0], short)) {
		return shapeNone // the first word itself: "NAT traversal" is not what "nat" stands for
	}
	long := strings.Join(words, " ")
	if len(long) < len(short)+2 {
		return shapeNone
	}
	if strings.IndexFunc(short, unicode.IsDigit) >= 0 {
		// Only a numeronym: "n9" is not short for "N900".
		if n, err := strconv.Atoi(short[1 : len(short)-1]); err == nil && len(short) >= 3 && len(words) == 1 &&
			n == len(long)-2 && long[0] == short[0] && long[len(long)-1] == short[len(short)-1] {
			return shapePrefix
		}
		return shapeNone
	}
	if len(words) == 1 {
		if strings.HasPrefix(long, short) {
			if len(short) < 3 {
				// Two letters are too little of a word to be its
				// truncation: "py" is no more Python than PyPI's or
				// py.test's, "un" no more unique than the UN.
				return shapeNone
			}
			return shapePrefix
		}
		if len(humps) > 1 {
			words = humps
		}
	}
	switch {
	case len(words) > 1 && coversInitials(words, short):
		return shapeInitials
	case !strings.Contains(long, " ") && coversInitials([]string{long}, short) && contracted(short):
		return shapeLetters
	}
	return shapeNone
}

// contracted says whether short is its initial then consonants: a word
// shortened by dropping letters keeps its consonants ("pg", "pkg",
// "mgmt"); with vowels besides it is a word of its own ("virtio" is not
// virtualization).
func contracted(short string) bool {
	return !strings.ContainsAny(short[1:], "aeiou")
}

// spellings replaces the lower-cased forms of aliases by the spelling the
// corpus uses most (PostgreSQL, Raspberry Pi).
func spellings(c index.Slim, step int, aliases []Alias) {
	want := map[string]map[string]int{}
	for _, a := range aliases {
		want[a.Long] = map[string]int{}
	}
	c.EachEvery(step, func(_ int, t *index.Talk) {
		for _, text := range []string{t.Title, t.Abstract, t.DescriptionText(), t.Track} {
			ws := strings.FieldsFunc(text, notWordRune)
			for j, w := range ws {
				if m, ok := want[strings.ToLower(w)]; ok {
					if _, known := m[w]; !known {
						w = strings.Clone(w) // kept: see mineAliases
					}
					m[w]++
				}
				if j+1 < len(ws) {
					if m, ok := want[strings.ToLower(w+" "+ws[j+1])]; ok {
						m[w+" "+ws[j+1]]++
					}
				}
			}
		}
	})
	most := func(key string) string {
		best, n := key, 0
		for form, c := range want[key] {
			if c > n || (c == n && form < best) {
				best, n = form, c
			}
		}
		return best
	}
	for i := range aliases {
		aliases[i].Long = most(aliases[i].Long)
	}
}

func notWordRune(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

// minedDocs are the words of the mined talks by number, each talk's in
// order, varint-encoded one after the other. Held as a slice of numbers a
// talk, they were the largest part of a start's heap at 100,000 talks: words
// are numbered as first seen, so the frequent ones take a byte or two, not
// four, and one array spares a slice and its spare room a talk.
type minedDocs struct {
	buf  []byte
	ends []int // where each talk's words end in buf
}

// start begins the next talk.
func (m *minedDocs) start() { m.ends = append(m.ends, len(m.buf)) }

// add appends word id to the talk begun last.
func (m *minedDocs) add(id int32) {
	m.buf = binary.AppendUvarint(m.buf, uint64(id))
	m.ends[len(m.ends)-1] = len(m.buf)
}

// len is the number of talks.
func (m *minedDocs) len() int { return len(m.ends) }

// words is talk i's words, decoded into scratch's array.
func (m *minedDocs) words(i int, scratch []int32) []int32 {
	from := 0
	if i > 0 {
		from = m.ends[i-1]
	}
	b := m.buf[from:m.ends[i]]
	out := scratch[:0]
	for len(b) > 0 {
		v, n := binary.Uvarint(b)
		out = append(out, int32(v))
		b = b[n:]
	}
	return out
}
