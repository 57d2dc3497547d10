package search

import (
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// scanCorrections is correctWithin without the signatures:
// every vocabulary word of a near length compared with editRows, the
// closest kept, most used first. The filtered scan must give the same
// answers.
func scanCorrections(v *vocabulary, byLen map[int][]string, w string, limit, max int) []string {
	w = strings.ToLower(w)
	if v.df[w] > 0 || limit <= 0 {
		return nil
	}
	rw := []rune(w)
	best := limit + 1
	var cands []string
	var rows editRows
	for n := len(rw) - limit; n <= len(rw)+limit; n++ {
		for _, c := range byLen[n] {
			d := rows.distance(rw, []rune(c), best)
			switch {
			case d < best:
				best = d
				cands = append(cands[:0], c)
			case d == best:
				cands = append(cands, c)
			}
		}
	}
	if best > limit {
		return nil
	}
	sort.SliceStable(cands, func(i, j int) bool { return v.df[cands[i]] > v.df[cands[j]] })
	return cands[:min(len(cands), max)]
}

// typos makes misspellings of w: a letter dropped, doubled, replaced, and
// two neighbours swapped, at positions drawn from r.
func typos(r *rand.Rand, w string) []string {
	rs := []rune(w)
	n := len(rs)
	if n < 2 {
		return nil
	}
	i := r.IntN(n - 1)
	var out []string
	edit := func(f func(rs []rune) []rune) {
		out = append(out, string(f(append([]rune(nil), rs...))))
	}
	edit(func(rs []rune) []rune { return append(rs[:i], rs[i+1:]...) })
	edit(func(rs []rune) []rune { return append(rs[:i+1], rs[i:]...) })
	edit(func(rs []rune) []rune { rs[i] = 'a' + rune(r.IntN(26)); return rs })
	edit(func(rs []rune) []rune { rs[i], rs[i+1] = rs[i+1], rs[i]; return rs })
	// Two edits: for the words of eight letters or more that allow them.
	edit(func(rs []rune) []rune { rs[i], rs[i+1] = rs[i+1], rs[i]; return append(rs[:n-1], 'q') })
	return out
}

// TestFuzzyMatchesScan: on the seeds' vocabulary, the scan filtered by
// signatures corrects 4,000 generated misspellings exactly as the scan of
// every word did.
func TestFuzzyMatchesScan(t *testing.T) {
	e, _ := seedEngine(t)
	v := e.snap.Load().vocab
	byLen := map[int][]string{} // v.sorted by rune length, each in order
	for _, c := range v.sorted {
		byLen[len([]rune(c))] = append(byLen[len([]rune(c))], c)
	}
	r := rand.New(rand.NewPCG(15, 1))
	checked, corrected := 0, 0
	for checked < 4000 {
		w := v.sorted[r.IntN(len(v.sorted))]
		for _, typo := range typos(r, w) {
			limit := maxEdits(len([]rune(typo)))
			want := scanCorrections(v, byLen, typo, limit, 2)
			got := v.correctWithin(typo, limit, 2)
			if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("correctWithin(%q, %d) (-scan +filtered):\n%s", typo, limit, diff)
			}
			checked++
			if len(got) > 0 {
				corrected++
			}
		}
	}
	// Most misspellings of words of five letters or more have a fix; a
	// lookup that found nothing would pass the comparison only if the scan
	// also found nothing.
	if corrected < checked/3 {
		t.Fatalf("%d of %d misspellings corrected: the comparison checked too little", corrected, checked)
	}
}

// TestSigDistance: the signature bound never exceeds the edit distance,
// on the edit-distance table's cases and on words with letters beyond a–z.
func TestSigDistance(t *testing.T) {
	for _, tt := range []struct{ a, b string }{
		{"monrach", "monarch"}, {"kitten", "sitting"}, {"", "abc"}, {"ab", "abcdef"},
		{"日本語", "日本"}, {"café", "cafe"}, {"mi300x", "mi250x"}, {"ŝtono", "stono"},
	} {
		var r editRows
		ra, rb := []rune(tt.a), []rune(tt.b)
		d := r.distance(ra, rb, 10)
		if lb := sigDistance(letterSig(ra), letterSig(rb)); lb > d {
			t.Errorf("sigDistance(%q, %q) = %d above the edit distance %d", tt.a, tt.b, lb, d)
		}
	}
	if got := sigDistance(letterSig([]rune("abc")), letterSig([]rune("xyz"))); got != 3 {
		t.Errorf("sigDistance(abc, xyz) = %d, want 3", got)
	}
}
