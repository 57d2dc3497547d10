package overlap

import (
	"hash/fnv"
	"sort"
	"strings"
	"time"

	"github.com/talksearch/talksearch/index/analysis"
)

// Resubmission is a talk of one conference that comes back at a later
// one: the same or an edited abstract, perhaps under a new title, or the
// same title, or the same speaker on a similar text.
type Resubmission struct {
	Earlier           string // talk ids
	Later             string
	TitleEarlier      string
	TitleLater        string
	ConferenceEarlier string
	ConferenceLater   string
	YearEarlier       int // 0: unknown
	YearLater         int
	Kind              string // the pair's kind
	Score             float64
	Resemblance       float64
	SharedSpeakers    []string
	// Evidence says why, for people: "same title", "new title", "same
	// abstract", "edited abstract", "same speaker".
	Evidence []string
}

// resubmissionEditedMin is the shingle resemblance from which a pair
// across conferences counts as the abstract edited (the near-duplicate
// threshold, without its cosine condition: over a year a text is
// reworded more than two submissions to one call are).
const resubmissionEditedMin = nearDupMin

// isResubmission reports whether a pair found by the search is one talk at
// two conferences. It is called for every pair found, so it compares
// precomputed keys only.
func (d *detector) isResubmission(p pairInfo) bool {
	ci, cj := d.talks[p.i].Conference.ID, d.talks[p.j].Conference.ID
	if ci == "" || cj == "" || ci == cj {
		return false
	}
	switch p.kind {
	case KindDuplicate, KindNearDuplicate, KindSameSpeaker, KindResubmission:
		return true
	}
	if d.titleKeys[p.i] != 0 && d.titleKeys[p.i] == d.titleKeys[p.j] {
		return true
	}
	if p.cos >= nearDupCos/2 {
		jac, contain := resemblance(d.shingles(p.i), d.shingles(p.j))
		return jac >= resubmissionEditedMin || contain >= nearDupContainment
	}
	return false
}

// titleKey is a title folded, without the years it names: "GStreamer:
// State of the Union 2024" comes back as "… 2025", the same title.
func titleKey(title string) uint64 {
	var words []string
	for _, w := range analysis.MatchWords(title) {
		if !isYear(w) {
			words = append(words, w)
		}
	}
	if len(words) == 0 {
		return 0
	}
	h := fnv.New64a()
	h.Write([]byte(strings.Join(words, " ")))
	return h.Sum64() | 1
}

func isYear(w string) bool {
	return len(w) == 4 && (strings.HasPrefix(w, "19") || strings.HasPrefix(w, "20")) && analysis.IsNumber(w)
}

// buildResubmissions orders each pair by conference (the conference whose
// talks start first is the earlier; without times, by id) and lists them
// latest conference first, then by score.
func (d *detector) buildResubmissions(pairs []pairInfo, maxPairs int) ([]Resubmission, int) {
	first := map[string]time.Time{}
	for _, t := range d.talks {
		if t.Start == nil || t.Conference.ID == "" {
			continue
		}
		if f, ok := first[t.Conference.ID]; !ok || t.Start.Before(f) {
			first[t.Conference.ID] = *t.Start
		}
	}
	before := func(a, b string) bool {
		fa, oka := first[a]
		fb, okb := first[b]
		if oka && okb && !fa.Equal(fb) {
			return fa.Before(fb)
		}
		return a < b
	}
	out := []Resubmission{}
	for _, p := range pairs {
		i, j := p.i, p.j
		if before(d.talks[j].Conference.ID, d.talks[i].Conference.ID) {
			i, j = j, i
		}
		a, b := d.talks[i], d.talks[j]
		jac, _ := resemblance(d.shingles(i), d.shingles(j))
		if p.kind == KindDuplicate {
			jac = 1
		}
		r := Resubmission{
			Earlier: a.ID, Later: b.ID, TitleEarlier: a.Title, TitleLater: b.Title,
			ConferenceEarlier: a.Conference.ID, ConferenceLater: b.Conference.ID,
			YearEarlier: talkYear(a), YearLater: talkYear(b),
			Kind: p.kind, Score: round(p.score), Resemblance: round(jac),
			SharedSpeakers: sharedSpeakers(a, d.spk[i], d.spk[j]),
		}
		if d.titleKeys[i] != 0 && d.titleKeys[i] == d.titleKeys[j] {
			r.Evidence = append(r.Evidence, "same title")
		} else {
			r.Evidence = append(r.Evidence, "new title")
		}
		switch {
		case p.kind == KindDuplicate || jac >= 0.9:
			r.Evidence = append(r.Evidence, "same abstract")
		case jac >= resubmissionEditedMin:
			r.Evidence = append(r.Evidence, "edited abstract")
		}
		if len(r.SharedSpeakers) > 0 {
			r.Evidence = append(r.Evidence, "same speaker")
		}
		out = append(out, r)
	}
	sort.SliceStable(out, func(x, y int) bool {
		if out[x].ConferenceLater != out[y].ConferenceLater {
			return before(out[y].ConferenceLater, out[x].ConferenceLater)
		}
		if out[x].Score != out[y].Score {
			return out[x].Score > out[y].Score
		}
		if out[x].Later != out[y].Later {
			return out[x].Later < out[y].Later
		}
		return out[x].Earlier < out[y].Earlier
	})
	more := 0
	if len(out) > maxPairs {
		more = len(out) - maxPairs
		out = out[:maxPairs]
	}
	return out, more
}

// VersionsOf lists the resubmissions a talk is part of: its earlier
// versions (Later == id) and its later ones (Earlier == id).
func (r *Report) VersionsOf(id string) []Resubmission {
	out := []Resubmission{}
	for _, rs := range r.Resubmissions {
		if rs.Later == id || rs.Earlier == id {
			out = append(out, rs)
		}
	}
	return out
}
