// Package synthetic generates talks for benchmarks at sizes no conference
// reaches (index build, search, related talks, overlap detection) from a
// base corpus such as the seeds. Only benchmarks and tests import it.
package synthetic

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
	"unicode"

	"github.com/talksearch/talksearch/index"
)

// Talks returns n talks generated from base, whose text reads like theirs (n ≥ 0, base not
// empty), deterministic for seed:
//
//   - Each synthetic talk copies the shape of a base talk picked at random
//     (track, level, room, kind, scheduled, duration, number of speakers,
//     of abstract paragraphs and of their sentences), so facet
//     distributions, abstract lengths, the share of
//     talks without a level or an abstract, and their correlations match.
//     Its start is the base talk's, moved by 0–2 days and ±2 hours in
//     30-minute steps.
//   - Titles and abstract sentences are random walks on the word bigrams
//     of the base titles and abstracts (whitespace-separated words, so
//     technical tokens such as torch.compile, KV-cache or <1ms survive and
//     occur with their corpus frequency); a sentence ends on a word that
//     ends one in the corpus, or after 40 words.
//   - The vocabulary grows with n, as a real corpus's does (Heaps' law):
//     about one word in 40 is replaced by an invented CamelCase product
//     name (two corpus words run together), drawn with a Zipf law from a
//     pool of n/20 names. Without it, 100k talks would share the seeds'
//     few thousand words and the term dictionary would be unrealistically
//     small.
//   - Speakers combine first names, last names and affiliations of base
//     speakers; breaks keep their title verbatim ("Coffee Break").
//   - IDs are "synthetic-<i>", Sources is ["synthetic"].
func Talks(base []index.Talk, n int, seed int64) []index.Talk {
	if len(base) == 0 {
		return nil
	}
	return newSynthModel(base).generate(n, seed)
}

// A chain is a bigram model: for each word id, the ids that follow it in
// the corpus, with repetition (so frequent successors are drawn often).
// Id 0 is the boundary: chain[0] holds the first words of titles or
// sentences, and 0 as a successor ends a title.
type chain map[int32][]int32

type synthModel struct {
	base      []index.Talk
	words     []string // id → word; words[0] is the boundary
	ends      []bool   // id → the word ends a sentence
	title     chain
	abstract  chain
	contents  []int32 // ids of words long enough to take part in names
	first     []string
	last      []string
	companies []string
}

func newSynthModel(base []index.Talk) *synthModel {
	m := &synthModel{base: base, words: []string{""}, ends: []bool{true},
		title: chain{}, abstract: chain{}}
	ids := map[string]int32{}
	id := func(w string) int32 {
		if i, ok := ids[w]; ok {
			return i
		}
		i := int32(len(m.words))
		ids[w] = i
		m.words = append(m.words, w)
		m.ends = append(m.ends, strings.HasSuffix(w, ".") || strings.HasSuffix(w, "?") || strings.HasSuffix(w, "!"))
		if len(w) >= 5 && isLowerWord(w) {
			m.contents = append(m.contents, i)
		}
		return i
	}
	for _, t := range base {
		prev := int32(0)
		for _, w := range strings.Fields(t.Title) {
			cur := id(w)
			m.title[prev] = append(m.title[prev], cur)
			prev = cur
		}
		if prev != 0 {
			m.title[prev] = append(m.title[prev], 0)
		}
		prev = 0
		for _, w := range strings.Fields(t.Abstract) {
			cur := id(w)
			m.abstract[prev] = append(m.abstract[prev], cur)
			prev = cur
			if m.ends[cur] {
				prev = 0
			}
		}
		for _, s := range t.Speakers {
			if parts := strings.Fields(s.Name); len(parts) >= 2 {
				m.first = append(m.first, parts[0])
				m.last = append(m.last, parts[len(parts)-1])
			}
			if s.Affiliation != "" {
				m.companies = append(m.companies, s.Affiliation)
			}
		}
	}
	return m
}

func isLowerWord(w string) bool {
	for _, r := range w {
		if !unicode.IsLower(r) {
			return false
		}
	}
	return true
}

func (m *synthModel) generate(n int, seed int64) []index.Talk {
	r := rand.New(rand.NewPCG(uint64(seed), 0x7a1c5ea7c4))
	g := &synthGen{m: m, r: r, names: m.namePool(r, max(100, n/20))}
	g.zipf = rand.NewZipf(r, 1.2, 1, uint64(len(g.names)-1))
	talks := make([]index.Talk, n)
	for i := range talks {
		talks[i] = g.talk(i)
	}
	return talks
}

// namePool invents CamelCase product names from pairs of corpus words.
func (m *synthModel) namePool(r *rand.Rand, size int) []string {
	names := make([]string, size)
	if len(m.contents) == 0 {
		for i := range names {
			names[i] = fmt.Sprintf("Product%d", i)
		}
		return names
	}
	for i := range names {
		a := m.words[m.contents[r.IntN(len(m.contents))]]
		b := m.words[m.contents[r.IntN(len(m.contents))]]
		names[i] = capitalize(a) + capitalize(b)
	}
	return names
}

func capitalize(w string) string {
	return strings.ToUpper(w[:1]) + w[1:]
}

type synthGen struct {
	m     *synthModel
	r     *rand.Rand
	names []string
	zipf  *rand.Zipf
}

func (g *synthGen) talk(i int) index.Talk {
	tpl := g.m.base[g.r.IntN(len(g.m.base))]
	t := index.Talk{
		ID: fmt.Sprintf("synthetic-%d", i), Track: tpl.Track, Level: tpl.Level, Room: tpl.Room,
		Kind: tpl.Kind, Scheduled: tpl.Scheduled, Sources: []string{"synthetic"},
	}
	if tpl.Kind == index.KindBreak {
		t.Title = tpl.Title
	} else {
		t.Title = g.title()
	}
	if tpl.Abstract != "" {
		tplParas := strings.Split(tpl.Abstract, "\n\n")
		paras := make([]string, len(tplParas))
		for p, tp := range tplParas {
			paras[p] = g.paragraph(sentenceCount(tp))
		}
		t.Abstract = strings.Join(paras, "\n\n")
	}
	for range tpl.Speakers {
		t.Speakers = append(t.Speakers, g.speaker())
	}
	if tpl.Start != nil {
		shift := time.Duration(g.r.IntN(3))*24*time.Hour + time.Duration(g.r.IntN(9)-4)*30*time.Minute
		start := tpl.Start.Add(shift)
		t.Start = &start
		if tpl.End != nil {
			end := tpl.End.Add(shift)
			t.End = &end
		}
	}
	return t
}

func (g *synthGen) title() string {
	var words []string
	for cur := int32(0); len(words) < 14; {
		next := g.m.title[cur]
		if len(next) == 0 {
			break
		}
		cur = next[g.r.IntN(len(next))]
		if cur == 0 {
			break
		}
		words = append(words, g.word(cur))
	}
	if len(words) == 0 {
		return "Untitled"
	}
	return strings.Join(words, " ")
}

// sentenceCount is the number of sentences of a paragraph, at least one.
func sentenceCount(p string) int {
	n := 0
	for _, w := range strings.Fields(p) {
		if strings.HasSuffix(w, ".") || strings.HasSuffix(w, "?") || strings.HasSuffix(w, "!") {
			n++
		}
	}
	return max(n, 1)
}

func (g *synthGen) paragraph(sentences int) string {
	var b strings.Builder
	for s := 0; s < sentences; s++ {
		if s > 0 {
			b.WriteByte(' ')
		}
		g.sentence(&b)
	}
	return b.String()
}

func (g *synthGen) sentence(b *strings.Builder) {
	cur := int32(0)
	for w := 0; w < 40; w++ {
		next := g.m.abstract[cur]
		if len(next) == 0 {
			break
		}
		cur = next[g.r.IntN(len(next))]
		if w > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(g.word(cur))
		if g.m.ends[cur] {
			return
		}
	}
	b.WriteByte('.')
}

// word is the word of id, or now and then an invented name in its place.
func (g *synthGen) word(id int32) string {
	w := g.m.words[id]
	if len(w) >= 5 && isLowerWord(w) && g.r.IntN(40) == 0 {
		return g.names[g.zipf.Uint64()]
	}
	return w
}

func (g *synthGen) speaker() index.Speaker {
	m := g.m
	if len(m.first) == 0 {
		return index.Speaker{Name: "Ada Lovelace"}
	}
	s := index.Speaker{Name: m.first[g.r.IntN(len(m.first))] + " " + m.last[g.r.IntN(len(m.last))]}
	if len(m.companies) > 0 {
		s.Affiliation = m.companies[g.r.IntN(len(m.companies))]
	}
	return s
}
