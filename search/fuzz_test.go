package search

import (
	"context"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzSearch feeds arbitrary requests to the engine over the real seeds.
// The engine must never fail but with ErrInvalid, and then only for the
// bounds it documents; its answers must respect the limit and carry no
// markup but <mark>.
func FuzzSearch(f *testing.F) {
	for _, q := range []string{
		"KV cache", "Monrach", "torch.compile", `"unbalanced`, `"KV cache" -monarch`, "C++ -python",
		"title:", "speaker:White", "track:Inference", "<script>alert(1)</script>", "<1ms", "a\x00b",
		"\xff\xfe", "-", `""`, "*", "torch.compile*", "ß ü 日本語", "title:\"", strings.Repeat("a ", 300),
	} {
		f.Add(q, "", 0, 0, false)
	}
	f.Add("", "Inference & Production", 5, 3, true)
	f.Add("kv", "", 101, 0, false)
	f.Add("kv", "", 10, 10001, false)
	f.Add("kv", "", -1, -1, false)
	e, _ := seedEngine(f)
	f.Fuzz(func(t *testing.T, q, track string, limit, offset int, byTime bool) {
		r := Request{Query: q, Limit: limit, Offset: offset}
		if track != "" {
			r.Tracks = []string{track}
		}
		if byTime {
			r.Sort = SortTime
		}
		invalid := utf8.RuneCountInString(q) > MaxQueryLen || limit < 0 || limit > MaxLimit || offset < 0 || offset > MaxOffset
		res, err := e.Search(context.Background(), r)
		if err != nil {
			if !errors.Is(err, ErrInvalid) || !invalid {
				t.Fatalf("Search(%+v): %v", r, err)
			}
			return
		}
		if invalid {
			t.Fatalf("Search(%+v) accepted a request out of bounds", r)
		}
		want := limit
		if want == 0 {
			want = DefaultLimit
		}
		if len(res.Hits) > want || uint64(len(res.Hits)) > res.Total {
			t.Fatalf("Search(%+v): %d hits of %d, limit %d", r, len(res.Hits), res.Total, want)
		}
		seen := map[string]bool{}
		for _, h := range res.Hits {
			if seen[h.ID] {
				t.Fatalf("Search(%+v): talk %s twice", r, h.ID)
			}
			seen[h.ID] = true
			for _, frag := range append(append([]string{}, h.Highlights.Title...), h.Highlights.Abstract...) {
				bare := strings.NewReplacer("<mark>", "", "</mark>", "").Replace(frag)
				if strings.ContainsAny(bare, "<>") {
					t.Fatalf("Search(%+v): fragment %q has markup besides <mark>", r, frag)
				}
			}
		}
	})
}
