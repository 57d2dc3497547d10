package index

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/document"
	htmlformat "github.com/blevesearch/bleve/v2/search/highlight/format/html"
	"github.com/blevesearch/bleve/v2/search/highlight/fragmenter/simple"
	simplehl "github.com/blevesearch/bleve/v2/search/highlight/highlighter/simple"
	"github.com/blevesearch/bleve/v2/search/query"
	bleveindex "github.com/blevesearch/bleve_index_api"
	"github.com/google/go-cmp/cmp"
)

// handTalks are a few talks written for these tests, each carrying one of
// the technical tokens the analyzer must keep findable.
func handTalks() []Talk {
	at := time.Date(2026, 4, 7, 11, 0, 0, 0, time.UTC)
	return []Talk{
		{ID: "compile", Title: "Faster models with torch.compile", Abstract: "We show how torch.compile removes graph breaks.",
			Track: "Compilers", Level: "Intermediate", Room: "Hall A", Start: &at, Kind: KindTalk, Scheduled: true,
			Speakers: []Speaker{{Name: "Ada Lovelace", Affiliation: "Meta"}}},
		{ID: "a2a", Title: "Expert parallelism at scale", Abstract: "All-to-all communication dominates Mixture-of-Experts (MoE) training.",
			Track: "Distributed", Kind: KindTalk},
		{ID: "cpp", Title: "Shipping C++ extensions", Abstract: "One wheel for every CPython.", Kind: KindLightning},
		{ID: "letter-c", Title: "Plan C", Abstract: "Option c is the last resort.", Kind: KindTalk},
		{ID: "kv", Title: "Paged attention", Abstract: "KV caching for long contexts on MI300X with float8.", Kind: KindTalk},
		{ID: "break", Title: "Coffee Break", Kind: KindBreak},
	}
}

func searchIDs(t *testing.T, idx bleve.Index, q query.Query) []string {
	t.Helper()
	res, err := idx.Search(bleve.NewSearchRequest(q))
	if err != nil {
		t.Fatalf("search: %v", err)
	}
	var ids []string
	for _, h := range res.Hits {
		ids = append(ids, h.ID)
	}
	slices.Sort(ids)
	return ids
}

// matchField requires every term of text in field.
func matchField(field, text string) query.Query {
	q := bleve.NewMatchQuery(text)
	q.SetField(field)
	q.SetOperator(query.MatchQueryOperatorAnd)
	return q
}

func TestBuildFindsTechnicalTokens(t *testing.T) {
	idx, err := Build(handTalks())
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	if n, _ := idx.DocCount(); n != 6 {
		t.Fatalf("DocCount = %d, want 6", n)
	}
	match := matchField
	phrase := func(field, text string) query.Query {
		q := bleve.NewMatchPhraseQuery(text)
		q.SetField(field)
		return q
	}
	tests := []struct {
		name string
		q    query.Query
		want []string
	}{
		{"compile finds torch.compile", match(FieldAbstract, "compile"), []string{"compile"}},
		{"torch.compile as a phrase", phrase(FieldTitle, "torch.compile"), []string{"compile"}},
		{"all-to-all as a phrase", phrase(FieldAbstract, "all-to-all"), []string{"a2a"}},
		{"all to all typed with spaces", phrase(FieldAbstract, "all to all"), []string{"a2a"}},
		{"spaced long form matches hyphenated text", phrase(FieldAbstract, "mixture of experts"), []string{"a2a"}},
		{"KV-cache phrase matches KV caching", phrase(FieldAbstract, "KV-cache"), []string{"kv"}},
		{"C++ is not c", match(FieldTitle, "C++"), []string{"cpp"}},
		{"KV-cache finds KV caching", match(FieldAbstract, "KV-cache"), []string{"kv"}},
		{"MI300 finds MI300X", match(FieldAbstract, "MI300"), []string{"kv"}},
		{"FP8 finds float8", match(FieldAbstract, "FP8"), []string{"kv"}},
		{"speaker affiliation", match(FieldSpeakers, "meta"), []string{"compile"}},
		{"no _all field", bleve.NewMatchQuery("torch.compile"), nil},
		{"track words match", match(FieldTrackText, "compilers"), []string{"compile"}},
		{"room words match", match(FieldRoomText, "hall"), []string{"compile"}},
	}
	kind := bleve.NewTermQuery(string(KindBreak))
	kind.SetField(FieldKind)
	tests = append(tests, struct {
		name string
		q    query.Query
		want []string
	}{"kind keyword", kind, []string{"break"}})
	for _, f := range []string{"track", "level", "room"} {
		q := bleve.NewMatchQuery("Compilers Hall Intermediate")
		q.SetField(f)
		tests = append(tests, struct {
			name string
			q    query.Query
			want []string
		}{f + " is not indexed", q, nil})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, searchIDs(t, idx, tt.q)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// No field of the mapping is stored (the document keeps only its _id,
// which Document does not list): the search package holds the talks.
func TestBuildStoresNoField(t *testing.T) {
	idx, err := Build(handTalks())
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	d, err := idx.Document("compile")
	if err != nil {
		t.Fatal(err)
	}
	var stored []string
	d.VisitFields(func(f bleveindex.Field) { stored = append(stored, f.Name()) })
	if len(stored) > 0 {
		t.Errorf("stored fields %v, want none", stored)
	}
	if d.ID() != "compile" {
		t.Errorf("document id %q", d.ID())
	}
}

// The analyzer's offsets drive highlighting: "C++" is marked whole, a
// variant and its family (same offsets) are marked once, compound parts
// each, and the text around is escaped. Text fields are not stored (the
// search package highlights the talk text it holds), so the highlighter is
// given the text as search gives it, with the hit's term locations.
func TestBuildHighlightOffsets(t *testing.T) {
	talk := Talk{ID: "h", Title: "C++ on MI300X <1ms", Abstract: "Use torch.compile & <script>.", Kind: KindTalk}
	idx, err := Build([]Talk{talk})
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	doc := document.NewDocument(talk.ID)
	doc.AddField(document.NewTextField(FieldTitle, nil, []byte(talk.Title)))
	doc.AddField(document.NewTextField(FieldAbstract, nil, []byte(talk.Abstract)))
	hl := simplehl.NewHighlighter(simple.NewFragmenter(200), htmlformat.NewFragmentFormatter("<mark>", "</mark>"), "…")
	tests := []struct{ field, q, want string }{
		{FieldTitle, "C++", "<mark>C++</mark> on MI300X &lt;1ms"},
		{FieldTitle, "MI300", "C++ on <mark>MI300X</mark> &lt;1ms"},
		{FieldTitle, "1ms", "C++ on MI300X &lt;<mark>1ms</mark>"},
		{FieldAbstract, "torch.compile", "Use <mark>torch</mark>.<mark>compile</mark> &amp; &lt;script&gt;."},
	}
	for _, tt := range tests {
		q := bleve.NewMatchQuery(tt.q)
		q.SetField(tt.field)
		req := bleve.NewSearchRequest(q)
		req.IncludeLocations = true
		res, err := idx.Search(req)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) != 1 {
			t.Fatalf("%q: %d hits", tt.q, len(res.Hits))
		}
		if got := hl.BestFragmentsInField(res.Hits[0], doc, tt.field, 1); len(got) != 1 || got[0] != tt.want {
			t.Errorf("%q: fragments %q, want %q", tt.q, got, tt.want)
		}
	}
}

// Builds of several batches (two workers) and of nothing.
func TestBuildSizes(t *testing.T) {
	for _, n := range []int{0, 1, batchSize + 1} {
		idx, err := Build(numberedTalks(n))
		if err != nil {
			t.Fatalf("Build(%d talks): %v", n, err)
		}
		if got, _ := idx.DocCount(); got != uint64(n) {
			t.Errorf("Build(%d talks): DocCount %d", n, got)
		}
		idx.Close()
	}
}

// numberedTalks are n distinct talks, for builds of several batches.
func numberedTalks(n int) []Talk {
	talks := make([]Talk, n)
	for i := range talks {
		id := strconv.Itoa(i)
		talks[i] = Talk{ID: "t" + id, Title: "Talk number " + id, Abstract: "Abstract of talk " + id + " about kernels.", Kind: KindTalk}
	}
	return talks
}
