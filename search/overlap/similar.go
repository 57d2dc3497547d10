package overlap

import (
	"sync"
)

// similarPerTalk is how many similar submissions a talk's organizer view
// lists: the best pairs of each talk are kept while the search runs, so the
// view needs no second pass over the corpus, and the report's own list
// (bounded by MaxPairs, best of all talks first) need not hold them.
const similarPerTalk = 8

// similarIndex answers a talk's organizer view from one Detect run. Pairs
// are explained on first use, under mu: explaining fills the detector's
// per-talk caches.
type similarIndex struct {
	mu   sync.Mutex
	d    *detector
	near [][]pairInfo // per talk, best first
	byID map[string]int
	done map[[2]int]Pair
}

// keepViews says whether a report keeps what Report.Talk needs (the
// detector's vectors, memory that a report without them does not hold,
// see keepDetector). The report at Floor and the default clash threshold,
// the one a server keeps per corpus and filters for every minimum, does.
func keepViews(opts Options) bool {
	return opts.Min == Floor && (opts.ClashMin <= 0 || opts.ClashMin == DefaultClashMin)
}

// TalkOverlaps is one submission's organizer view: the submissions most
// like it (any track, any conference) with the explanation pairs carry,
// its other versions at other conferences, and its conflicts.
// Its JSON form is web's (web.TalkOverlapsDoc).
type TalkOverlaps struct {
	ID         string
	Title      string
	Conference string
	Track      string
	Similar    []Pair
	Versions   []Resubmission
	Conflicts  []Conflict
}

// addNear keeps p among the best pairs of both its talks.
func (s *pairSet) addNear(p pairInfo) {
	if s.near == nil {
		return
	}
	for _, k := range [2]int{p.i, p.j} {
		l := s.near[k]
		if len(l) == similarPerTalk && !better(p, l[len(l)-1]) {
			continue
		}
		pos := len(l)
		for pos > 0 && better(p, l[pos-1]) {
			pos--
		}
		if len(l) < similarPerTalk {
			l = append(l, pairInfo{})
		}
		copy(l[pos+1:], l[pos:len(l)-1])
		l[pos] = p
		s.near[k] = l
	}
}

// extra is pairSet.add's hook: the per-talk bests and the resubmissions
// see every pair found, whatever its score.
func (s *pairSet) extra(p pairInfo) {
	s.addNear(p)
	if p.kind == KindResubmission {
		s.resubs = append(s.resubs, p)
	}
}

// mergeExtra is pairSet.merge's hook.
func (s *pairSet) mergeExtra(o *pairSet) {
	if s.near != nil {
		for k, l := range o.near {
			for _, p := range l {
				if k == p.i { // each pair is in two lists; add it once
					s.addNear(p)
				}
			}
		}
	}
	s.resubs = append(s.resubs, o.resubs...)
}

// Talk is the organizer view of one talk of the report, false for an id
// not in it (or a break, which is never compared), and for every id of a
// report below Floor or at another clash threshold (see keepViews).
func (r *Report) Talk(id string) (*TalkOverlaps, bool) {
	if r.similar == nil {
		return nil, false
	}
	x := r.similar
	k, ok := x.byID[id]
	if !ok {
		return nil, false
	}
	t := x.d.talks[k]
	v := &TalkOverlaps{ID: t.ID, Title: t.Title, Conference: t.Conference.ID, Track: t.Track,
		Similar: []Pair{}, Versions: r.VersionsOf(id), Conflicts: []Conflict{}}
	x.mu.Lock()
	for _, p := range x.near[k] {
		key := [2]int{p.i, p.j}
		pair, ok := x.done[key]
		if !ok {
			x.d.explain(&p)
			pair = x.d.reportPair(p)
			x.done[key] = pair
		}
		v.Similar = append(v.Similar, pair)
	}
	x.mu.Unlock()
	for _, c := range r.Conflicts {
		if c.A == id || c.B == id {
			v.Conflicts = append(v.Conflicts, c)
		}
	}
	return v, true
}

// keepDetector is the detector a report keeps for its talks' views: the
// caches filled while the report was made (shingles of every pair close
// enough to be a copy, the texts of every pair explained) are dropped, to
// be made again for the talks whose view is asked for.
func keepDetector(d *detector) *detector {
	d.shs = make([][]uint64, len(d.talks))
	d.shOnce = make([]sync.Once, len(d.talks))
	d.texts = make([]*talkText, len(d.talks))
	return d
}
