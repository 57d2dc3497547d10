package ingest

import "github.com/talksearch/talksearch/index"

// shareStrings makes talks that carry the same value of a field share one
// copy of it: a decoder allocates each talk's own, and a corpus repeats a
// few hundred tracks, rooms, speakers and affiliations across its talks
// (100k generated talks held 12 MiB of copies). The engine keeps the talks
// for as long as it serves them, so the copies would live as long.
func shareStrings(talks []index.Talk) {
	seen := map[string]string{}
	share := func(s *string) {
		if *s == "" {
			return
		}
		if v, ok := seen[*s]; ok {
			*s = v
			return
		}
		seen[*s] = *s
	}
	for i := range talks {
		t := &talks[i]
		share(&t.Conference.ID)
		share(&t.Conference.Name)
		share(&t.Track)
		share(&t.Level)
		share(&t.Room)
		share(&t.Language)
		share(&t.TimeZone)
		k := string(t.Kind)
		share(&k)
		t.Kind = index.Kind(k)
		for j := range t.Sources {
			share(&t.Sources[j])
		}
		for j := range t.ReadFrom {
			share(&t.ReadFrom[j])
		}
		for j := range t.Speakers {
			sp := &t.Speakers[j]
			share(&sp.Name)
			share(&sp.Affiliation)
			share(&sp.SourceID)
		}
	}
}
