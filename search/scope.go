package search

import "strings"

// scopeOf is the room or track whose name query is, compared as the facet
// compares its values (folded: "h.2215" is H.2215), rooms first; nil when
// the query is no such name or has a search syntax beside it. A name with
// a part in parentheses answers to either part alone when no other name
// does ("H.2215" and "Ferrer" are "H.2215 (Ferrer)").
func (s *snapshot) scopeOf(query string) *Scope {
	q := strings.TrimSpace(query)
	if q == "" || strings.ContainsAny(q, ":\"") {
		return nil
	}
	for _, f := range []struct {
		facet int
		name  string
		of    func(d *doc) string
	}{
		{roomFacet, "room", func(d *doc) string { return d.talk.Room }},
		{trackFacet, "track", func(d *doc) string { return d.talk.Track }},
	} {
		k := facetKey(f.facet, q)
		if k == "" {
			continue
		}
		key, ok := k, s.shown[f.facet][k] != ""
		if !ok {
			key, ok = s.onlyNameWithPart(f.facet, k)
		}
		if !ok {
			continue
		}
		n := 0
		for _, d := range s.docs {
			if d != nil && facetKey(f.facet, f.of(d)) == key {
				n++
			}
		}
		return &Scope{Facet: f.name, Value: s.shown[f.facet][key], Talks: n}
	}
	return nil
}

// onlyNameWithPart is the key of the one value of a folded facet whose
// part before its parentheses, or in them, has key k.
func (s *snapshot) onlyNameWithPart(facet int, k string) (string, bool) {
	found := ""
	for key, shown := range s.shown[facet] {
		before, inside, ok := strings.Cut(shown, "(")
		if !ok {
			continue
		}
		inside, _, _ = strings.Cut(inside, ")")
		if facetKey(facet, before) != k && facetKey(facet, inside) != k {
			continue
		}
		if found != "" {
			return "", false
		}
		found = key
	}
	return found, found != ""
}
