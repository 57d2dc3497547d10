package search

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// logPerQuery logs, when RELEVANCE_PER_QUERY is set, each query's nDCG@10
// beside the best peer's on that query, worst deficit first, with the
// grades of talksearch's top 10 ("?" unjudged): where a ranking change
// should look first.
func logPerQuery(t *testing.T, rank ranker, col *collection, dir string, id func(string) string) {
	t.Helper()
	if os.Getenv("RELEVANCE_PER_QUERY") == "" {
		return
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.tsv"))
	peerRuns := map[string]map[string][]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ranked := map[string][]string{}
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if cols := strings.Split(l, "\t"); len(cols) >= 3 {
				ranked[cols[0]] = append(ranked[cols[0]], id(cols[2]))
			}
		}
		peerRuns[strings.TrimSuffix(filepath.Base(f), ".tsv")] = ranked
	}
	type row struct {
		q, kind, peer, grades string
		ours, best            float64
	}
	var rows []row
	for _, q := range col.queries {
		ids, err := rank(q)
		if err != nil {
			t.Fatal(err)
		}
		r := row{q: q, kind: col.kind[q], ours: ndcg10(ids, col.judged[q]), best: -1}
		for p, runs := range peerRuns {
			if v := ndcg10(runs[q], col.judged[q]); v > r.best {
				r.best, r.peer = v, p
			}
		}
		var g []string
		for i, h := range ids {
			if i == 10 {
				break
			}
			if v, ok := col.judged[q][h]; ok {
				g = append(g, fmt.Sprint(v))
			} else {
				g = append(g, "?")
			}
		}
		r.grades = strings.Join(g, "")
		rows = append(rows, r)
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].ours-rows[i].best < rows[j].ours-rows[j].best })
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "%-11s %+.3f ours %.3f %-15s %.3f [%-10s] %s\n", r.kind, r.ours-r.best, r.ours, r.peer, r.best, r.grades, r.q)
	}
	t.Log("\n" + b.String())
}
