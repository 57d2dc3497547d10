package search

import "strings"

// names are the values of the room and track facets a query may name,
// by folded key (facetkey.go): their talks, and the keys of the parts of
// a name with parentheses ("H.2215" and "Ferrer" of "H.2215 (Ferrer)"),
// "" for a part that more than one name has.
type names struct {
	talks [nFacets]map[string]int
	parts [nFacets]map[string]string
}

// scopeFacets are the facets a query may name, rooms first.
var scopeFacets = []struct {
	facet int
	name  string
	of    func(d *doc) string
}{
	{roomFacet, "room", func(d *doc) string { return d.talk.Room }},
	{trackFacet, "track", func(d *doc) string { return d.talk.Track }},
}

// readNames reads the names of the snapshot's rooms and tracks.
func (s *snapshot) readNames() *names {
	n := &names{}
	for _, f := range scopeFacets {
		talks := map[string]int{}
		// A corpus has far fewer rooms and tracks than talks: each
		// spelling is folded once, not once per talk, which made the
		// first search of a large corpus wait and its garbage grow with
		// the talks.
		keys := map[string]string{}
		for _, d := range s.docs {
			if d == nil {
				continue
			}
			v := f.of(d)
			k, ok := keys[v]
			if !ok {
				k = facetKey(f.facet, v)
				keys[v] = k
			}
			if k != "" {
				talks[k]++
			}
		}
		parts := map[string]string{}
		for key, shown := range s.shown[f.facet] {
			before, inside, ok := strings.Cut(shown, "(")
			if !ok {
				continue
			}
			inside, _, _ = strings.Cut(inside, ")")
			for _, p := range []string{facetKey(f.facet, before), facetKey(f.facet, inside)} {
				if p == "" {
					continue
				}
				if other, seen := parts[p]; seen && other != key {
					parts[p] = ""
				} else {
					parts[p] = key
				}
			}
		}
		n.talks[f.facet], n.parts[f.facet] = talks, parts
	}
	return n
}

// scopeOf is the room or track whose name query is, compared as the facet
// compares its values (folded: "h.2215" is H.2215), rooms first; nil when
// the query is no such name or has a search syntax beside it. A name with
// a part in parentheses answers to either part alone when no other name
// does.
func (s *snapshot) scopeOf(query string) *Scope {
	q := strings.TrimSpace(query)
	if q == "" || strings.ContainsAny(q, ":\"") || s.names == nil {
		return nil
	}
	ns := s.names()
	for _, f := range scopeFacets {
		k := facetKey(f.facet, q)
		if k == "" {
			continue
		}
		if _, ok := s.shown[f.facet][k]; !ok {
			k = ns.parts[f.facet][k]
		}
		if shown, ok := s.shown[f.facet][k]; ok && k != "" {
			return &Scope{Facet: f.name, Value: shown, Talks: ns.talks[f.facet][k]}
		}
	}
	return nil
}
