package search

import (
	"context"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/talksearch/talksearch/search/syntax"
)

// hostileGen makes hostile clients' queries: each up to the 400-character
// bound and new every time. Real words come from the seeds'
// titles as written, punctuation included ("cross-compilation", "talk:"),
// so misspelt and dotted ones split the way the analyzer splits them.
type hostileGen struct {
	r     *rand.Rand
	words []string
}

func newHostileGen(seed uint64, titles []string) *hostileGen {
	g := &hostileGen{r: rand.New(rand.NewPCG(16, seed))}
	for _, t := range titles {
		g.words = append(g.words, strings.Fields(strings.ToLower(t))...)
	}
	return g
}

func (g *hostileGen) word() string    { return g.words[g.r.IntN(len(g.words))] }
func (g *hostileGen) nonword() string { return hostileQuery(g.r, 14) }

// misspelt swaps two neighbouring letters, as a typing slip does.
func (g *hostileGen) misspelt() string {
	w := g.word()
	if len(w) < 4 {
		return w + "x"
	}
	i := g.r.IntN(len(w) - 1)
	return w[:i] + string(w[i+1]) + string(w[i]) + w[i+2:]
}

// hostileShapes are the shapes measured, in the order reported.
var hostileShapes = []struct {
	name string
	next func(g *hostileGen) string // one part; fillQuery joins parts up to the bound
}{
	{"non-words", (*hostileGen).nonword},
	{"misspellings", (*hostileGen).misspelt},
	// Every word known: every clause and phrase finds its terms.
	{"words", (*hostileGen).word},
	{"phrases", func(g *hostileGen) string { return `"` + g.word() + " " + g.misspelt() + `"` }},
	// Quoted phrases of eight corpus words: every field has their terms.
	{"long-phrases", func(g *hostileGen) string {
		ws := make([]string, 8)
		for i := range ws {
			ws[i] = g.word()
		}
		return `"` + strings.Join(ws, " ") + `"`
	}},
	// torch.compile-like tokens: a real word and a non-word.
	{"dotted", func(g *hostileGen) string { return g.word() + "." + g.nonword() }},
	// Three-part dotted and hyphenated compounds of non-words.
	{"joined", func(g *hostileGen) string { return g.nonword() + "." + g.nonword() + "-" + g.nonword() }},
	{"mixed", func(g *hostileGen) string {
		switch g.r.IntN(5) {
		case 0:
			return "-" + g.nonword()
		case 1:
			return "title:" + g.misspelt()
		case 2:
			return `"` + g.misspelt() + " " + g.nonword() + `"`
		case 3:
			return g.word() + "." + g.word()
		}
		return g.nonword()
	}},
}

// query is one query of the shape: parts up to MaxQueryLen bytes.
func (g *hostileGen) query(next func(*hostileGen) string) string {
	var b strings.Builder
	for {
		w := next(g)
		if b.Len()+1+len(w) > MaxQueryLen {
			return b.String()
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
}

func seedTitles(t testing.TB) []string {
	_, c := seedEngine(t)
	var out []string
	for _, tk := range c.Talks {
		out = append(out, tk.Title)
	}
	return out
}

// BenchmarkHostile measures the server time of hostile queries on the
// seeds, one at a time, with the server's caches on and every query new:
// the figure the per-query budget (cost.go) is held to, 5 ms. Per shape it
// reports wall p50/p99/max, the CPU time of the searching thread per query
// (p50/p99/max: what the search costs where it has a core to itself; on a
// shared machine wall time includes waiting for one) and the whole
// process's CPU time per query (cpu-µs/op: the garbage collector's work
// included, which other threads do).
//
//	go test ./search -run '^$' -bench 'Hostile$' -benchtime 200x
func BenchmarkHostile(b *testing.B) {
	e, _ := seedEngine(b)
	benchHostile(b, e, seedTitles(b))
}

// BenchmarkHostileFOSDEM is BenchmarkHostile on the whole FOSDEM archive
// (caches off), its words taken from the archive's titles: the budget
// holds there too, though every term's postings are longer. It skips
// where ../shared is absent.
//
//	go test ./search -run '^$' -bench 'HostileFOSDEM' -benchtime 200x
func BenchmarkHostileFOSDEM(b *testing.B) {
	e := archiveEngine(b)
	benchHostile(b, e, engineTitles(e))
}

// engineTitles are the titles of the talks e serves.
func engineTitles(e *Engine) []string {
	var out []string
	for _, d := range e.snap.Load().byTime {
		out = append(out, d.talk.Title)
	}
	return out
}

func benchHostile(b *testing.B, e *Engine, titles []string) {
	for _, shape := range hostileShapes {
		b.Run(shape.name, func(b *testing.B) {
			// Seeded by b.N: the warm-up run's queries are not the
			// measured run's, so none is answered from a cache.
			g := newHostileGen(uint64(b.N), titles)
			qs := make([]string, b.N)
			for i := range qs {
				qs[i] = g.query(shape.next)
			}
			wall := make([]time.Duration, 0, b.N)
			cpu := make([]time.Duration, 0, b.N)
			ctx := context.Background()
			// A search runs on its caller's goroutine: on one thread,
			// that thread's CPU time is the search's.
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			b.ResetTimer()
			proc0 := cpuTime()
			for i := range b.N {
				t0, c0 := time.Now(), threadCPUTime()
				if _, err := e.Search(ctx, Request{Query: qs[i]}); err != nil {
					b.Fatal(err)
				}
				cpu = append(cpu, threadCPUTime()-c0)
				wall = append(wall, time.Since(t0))
			}
			proc := cpuTime() - proc0
			b.StopTimer()
			slices.Sort(wall)
			slices.Sort(cpu)
			pct := func(ds []time.Duration, p int) float64 {
				return float64(ds[min(len(ds)-1, len(ds)*p/100)].Microseconds())
			}
			b.ReportMetric(pct(wall, 50), "p50-µs")
			b.ReportMetric(pct(wall, 99), "p99-µs")
			b.ReportMetric(float64(wall[len(wall)-1].Microseconds()), "max-µs")
			b.ReportMetric(float64(proc.Microseconds())/float64(b.N), "cpu-µs/op")
			b.ReportMetric(pct(cpu, 50), "cpu-p50-µs")
			b.ReportMetric(pct(cpu, 99), "cpu-p99-µs")
			b.ReportMetric(float64(cpu[len(cpu)-1].Microseconds()), "cpu-max-µs")
		})
	}
}

// TestHostileQueriesAreBounded: every hostile query stays within the cost
// model's budget, and its answer says it was simplified.
func TestHostileQueriesAreBounded(t *testing.T) {
	e, _ := seedEngine(t)
	s := e.snap.Load()
	titles := seedTitles(t)
	for _, shape := range hostileShapes {
		g := newHostileGen(8, titles)
		for range 8 {
			q := g.query(shape.next)
			p := syntax.Parse(q)
			pl := s.compile(p)
			if len(pl.fixes) > maxCorrections {
				t.Errorf("%s %q: %d corrections", shape.name, q, len(pl.fixes))
			}
			if len(pl.coord) > maxWordClauses+2 {
				t.Errorf("%s %q: %d clauses", shape.name, q, len(pl.coord))
			}
			// Only the parts always built (cost.go) may overrun the
			// budget, and then no optional part is built.
			if n := searchersOf(pl.q); n > maxSearchers && (pl.q.(*query.BooleanQuery).Should != nil || !strings.Contains(pl.note, "left out")) {
				t.Errorf("%s %q: %d term searchers, budget %d, note %q", shape.name, q, n, maxSearchers, pl.note)
			}
			if !pl.simplified || !strings.HasPrefix(pl.note, "The query was simplified: ") {
				t.Errorf("%s %q: simplified %v, note %q", shape.name, q, pl.simplified, pl.note)
			}
			r, err := e.Search(context.Background(), Request{Query: q})
			if err != nil {
				t.Fatal(err)
			}
			if !r.Simplified || r.Note != pl.note {
				t.Errorf("%s: result simplified %v note %q", shape.name, r.Simplified, r.Note)
			}
		}
	}
	// An ordinary query is not simplified.
	r, err := e.Search(context.Background(), Request{Query: "Monrach KV-cache \"distributed training\""})
	if err != nil {
		t.Fatal(err)
	}
	if r.Simplified || r.Note != "" {
		t.Errorf("ordinary query simplified: %q", r.Note)
	}
}
