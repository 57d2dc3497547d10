package synthetic

import (
	"regexp"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/ingest"
	"github.com/talksearch/talksearch/seeds"

	"github.com/blevesearch/bleve/v2"
	"github.com/google/go-cmp/cmp"
)

func TestSyntheticDeterministic(t *testing.T) {
	a, b := Talks(seedTalks(t), 300, 42), Talks(seedTalks(t), 300, 42)
	if len(a) != 300 {
		t.Fatalf("len = %d", len(a))
	}
	if diff := cmp.Diff(a, b); diff != "" {
		t.Fatalf("same seed, different talks:\n%s", diff)
	}
	c := Talks(seedTalks(t), 300, 43)
	same := 0
	for i := range a {
		if a[i].Title == c[i].Title {
			same++
		}
	}
	if same > 30 {
		t.Errorf("seeds 42 and 43 share %d of 300 titles", same)
	}
	if got := Talks(seedTalks(t), 0, 1); len(got) != 0 {
		t.Errorf("Talks(0) = %d talks", len(got))
	}
	if got := Talks(nil, 5, 1); got != nil {
		t.Errorf("Talks(nil) = %v", got)
	}
}

// The generated talks draw their values and words from the seeds: every
// facet value is a seed value, every word is a seed word or an invented
// CamelCase name, and the shares of talks without a value are close.
func TestSyntheticLooksLikeSeeds(t *testing.T) {
	seedsT := seedTalks(t)
	syn := Talks(seedTalks(t), 5000, 7)
	values := map[string]bool{}
	words := map[string]bool{}
	for _, s := range seedsT {
		values["track="+s.Track], values["level="+s.Level], values["room="+s.Room] = true, true, true
		values["kind="+string(s.Kind)] = true
		for _, w := range strings.Fields(s.Title + " " + s.Abstract) {
			words[w] = true
		}
	}
	ids := map[string]bool{}
	invented := map[string]bool{}
	var wordCount, inventedCount, noLevel, seedNoLevel, withAbstract int
	for _, s := range syn {
		if ids[s.ID] {
			t.Fatalf("duplicate id %s", s.ID)
		}
		ids[s.ID] = true
		for _, v := range []string{"track=" + s.Track, "level=" + s.Level, "room=" + s.Room, "kind=" + string(s.Kind)} {
			if !values[v] {
				t.Fatalf("talk %s: %s not in the seeds", s.ID, v)
			}
		}
		if s.Scheduled != (s.Start != nil) {
			t.Fatalf("talk %s: scheduled %v with start %v", s.ID, s.Scheduled, s.Start)
		}
		if s.Level == "" {
			noLevel++
		}
		if s.Abstract != "" {
			withAbstract++
		}
		for _, w := range strings.Fields(s.Title + " " + s.Abstract) {
			wordCount++
			if !words[w] {
				if inventedName.MatchString(strings.TrimSuffix(w, ".")) {
					inventedCount++
					invented[w] = true
				} else if !words[strings.TrimSuffix(w, ".")] {
					t.Fatalf("talk %s: word %q is not from the seeds", s.ID, w)
				}
			}
		}
	}
	for _, s := range seedsT {
		if s.Level == "" {
			seedNoLevel++
		}
	}
	share := func(n, of int) float64 { return float64(n) / float64(of) }
	if d := share(noLevel, len(syn)) - share(seedNoLevel, len(seedsT)); d < -0.05 || d > 0.05 {
		t.Errorf("talks without level: %.2f synthetic vs %.2f seeds", share(noLevel, len(syn)), share(seedNoLevel, len(seedsT)))
	}
	if r := share(inventedCount, wordCount); r < 0.005 || r > 0.05 {
		t.Errorf("invented names are %.3f of words", r)
	}
	if len(invented) < 100 {
		t.Errorf("only %d distinct invented names", len(invented))
	}
	if withAbstract < len(syn)/2 {
		t.Errorf("only %d of %d talks have an abstract", withAbstract, len(syn))
	}
}

func TestSyntheticIndexes(t *testing.T) {
	idx, err := index.Build(Talks(seedTalks(t), 500, 1))
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	if n, _ := idx.DocCount(); n != 500 {
		t.Errorf("DocCount = %d", n)
	}
	res, err := idx.Search(bleve.NewSearchRequest(abstractMatch("PyTorch")))
	if err != nil {
		t.Fatal(err)
	}
	if res.Total < 100 {
		t.Errorf("PyTorch in %d of 500 synthetic abstracts, want a realistic share", res.Total)
	}
}

// seedTalks are the embedded seeds' talks, ingested.
func seedTalks(tb testing.TB) []index.Talk {
	tb.Helper()
	c, err := ingest.Load(seeds.FS)
	if err != nil {
		tb.Fatal(err)
	}
	return c.Talks
}

func BenchmarkTalks(b *testing.B) {
	base := seedTalks(b)
	for b.Loop() {
		Talks(base, 1000, 1)
	}
}

// inventedName is the shape of the product names the generator invents:
// two or more capitalised corpus words run together.
var inventedName = regexp.MustCompile(`^[A-Z][a-z]+([A-Z][a-z]{2,})+$`)

func abstractMatch(text string) *query.MatchQuery {
	q := bleve.NewMatchQuery(text)
	q.SetField(index.FieldAbstract)
	return q
}
