package overlap

import (
	"sort"
	"strings"
)

// labelTerms is how many terms name a cluster.
const labelTerms = 3

// clusterAvgShare of the report threshold is the mean similarity two groups
// need to merge into one cluster.
const clusterAvgShare = 0.5

// clusterPairs groups talks linked by pairs. Pairs are joined best first,
// as in single linkage, but two groups merge only if their talks are on
// average still similar (the mean score over all their cross pairs, absent
// pairs counting 0, reaches avgMin) and the result stays within
// MaxClusterSize: plain connected components chain unrelated talks through
// one broad talk that touches several topics. score gives the score of any
// pair, also of those below the report threshold.
func clusterPairs(pairs []pairInfo, score func(i, j int) float64, n int, avgMin float64) [][]int {
	root := make([]int, n)
	members := make([][]int, n)
	for i := range root {
		root[i] = i
		members[i] = []int{i}
	}
	link := func(a, b []int) float64 {
		var sum float64
		for _, x := range a {
			for _, y := range b {
				sum += score(x, y)
			}
		}
		return sum / float64(len(a)*len(b))
	}
	for _, p := range pairs { // best first
		ra, rb := root[p.i], root[p.j]
		if ra == rb || len(members[ra])+len(members[rb]) > MaxClusterSize {
			continue
		}
		if link(members[ra], members[rb]) < avgMin {
			continue
		}
		if len(members[ra]) < len(members[rb]) {
			ra, rb = rb, ra
		}
		for _, x := range members[rb] {
			root[x] = ra
		}
		members[ra] = append(members[ra], members[rb]...)
		members[rb] = nil
	}
	var out [][]int
	for r, m := range members {
		if len(m) > 1 && root[r] == r {
			out = append(out, m)
		}
	}
	return out
}

// buildClusters turns groups into report clusters: members ordered by how
// strongly they link to the rest of the group, the label made of the terms
// the group's pairs share most, clusters ordered by their strongest pair.
//
// Pairs scoring below floor count 0 in the group averages: a faint
// resemblance is no link.
//
// It also returns each cluster's strongest pair score, for Report.AtLeast.
func (d *detector) buildClusters(pairs []pairInfo, minScore, floor float64) ([]Cluster, []float64) {
	known := make(map[[2]int]float64)
	score := func(i, j int) float64 {
		k := [2]int{min(i, j), max(i, j)}
		s, ok := known[k]
		if !ok {
			if s = d.pairScore(k[0], k[1]); s < floor {
				s = 0
			}
			known[k] = s
		}
		return s
	}
	groups := clusterPairs(pairs, score, len(d.talks), clusterAvgShare*minScore)
	type ranked struct {
		c    Cluster
		best float64
	}
	var rs []ranked
	for _, g := range groups {
		in := map[int]bool{}
		for _, x := range g {
			in[x] = true
		}
		strength := map[int]float64{}
		termWeight := map[string]float64{}
		best := 0.0
		for _, p := range pairs {
			if !in[p.i] || !in[p.j] {
				continue
			}
			strength[p.i] += p.score
			strength[p.j] += p.score
			best = max(best, p.score)
			for _, st := range p.shared {
				termWeight[st.surface] += st.weight
			}
		}
		sort.Slice(g, func(a, b int) bool {
			if strength[g[a]] != strength[g[b]] {
				return strength[g[a]] > strength[g[b]]
			}
			return g[a] < g[b]
		})
		c := Cluster{}
		for _, x := range g {
			c.IDs = append(c.IDs, d.talks[x].ID)
			c.Titles = append(c.Titles, d.talks[x].Title)
		}
		c.Label = strings.Join(topTerms(termWeight, labelTerms), ", ")
		rs = append(rs, ranked{c, best})
	}
	sort.Slice(rs, func(a, b int) bool {
		if rs[a].best != rs[b].best {
			return rs[a].best > rs[b].best
		}
		return rs[a].c.IDs[0] < rs[b].c.IDs[0]
	})
	out := make([]Cluster, 0, len(rs))
	best := make([]float64, 0, len(rs))
	for _, r := range rs {
		out = append(out, r.c)
		best = append(best, r.best)
	}
	return out, best
}

// topTerms returns the k heaviest terms, ties in alphabetical order.
func topTerms(weights map[string]float64, k int) []string {
	terms := make([]string, 0, len(weights))
	for t := range weights {
		terms = append(terms, t)
	}
	sort.Slice(terms, func(a, b int) bool {
		if weights[terms[a]] != weights[terms[b]] {
			return weights[terms[a]] > weights[terms[b]]
		}
		return terms[a] < terms[b]
	})
	return terms[:min(k, len(terms))]
}
