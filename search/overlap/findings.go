package overlap

import (
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/analysis"
)

// Recurring is one session held at every edition (a BoF, a devroom's
// welcome, a project's yearly status update): one line with its years,
// apart from the pairs, since a committee expects it back.
type Recurring struct {
	Title       string   // as the latest edition writes it
	Years       []int    // ascending; 0 for an edition without a year
	Conferences []string // one per edition, in the order of Years
	IDs         []string // the talks, in the order of Years
	// Evidence says why it is one session: "same title", "same speaker",
	// "same abstract" or "edited abstract", and why it is a fixture
	// ("kind bof", "short text", "short title").
	Evidence []string
}

// Recurring sessions are told from resubmitted proposals by what a
// fixture looks like: a session kind (bof, meet), a text too short to be a
// proposal, or a title of a few words that names a series ("Weblate BoF",
// "The state of Go", "GRUB - Project Status Update"). A talk given again
// under a long title with a full abstract is a resubmission.
const (
	fixtureMaxTitleWords = 5
	fixtureMaxTerms      = 2 * minTerms
)

// classify names a pair found by the search for what it is: across
// conferences, a recurring session or a resubmission (an earlier
// edition's proposal back); within one, the kinds score gave it.
func (d *detector) classify(p pairInfo) pairInfo {
	a, b := d.talks[p.i], d.talks[p.j]
	if a.Conference.ID == "" || b.Conference.ID == "" || a.Conference.ID == b.Conference.ID {
		return p
	}
	if why := d.fixture(p.i, p.j); why != "" {
		p.kind = KindRecurring
		return p
	}
	if d.isResubmission(p) {
		p.kind = KindResubmission
	}
	return p
}

// fixture says why talks i and j, of two editions under one title, are one
// recurring session, or "" when they are not.
func (d *detector) fixture(i, j int) string {
	if d.titleKeys[i] == 0 || d.titleKeys[i] != d.titleKeys[j] {
		return ""
	}
	a, b := d.talks[i], d.talks[j]
	switch {
	case isSessionKind(a.Kind) || isSessionKind(b.Kind):
		return "kind " + string(a.Kind)
	case min(d.vecs[i].Len(), d.vecs[j].Len()) < fixtureMaxTerms:
		return "short text"
	case titleWords(a.Title) <= fixtureMaxTitleWords:
		return "short title"
	}
	return ""
}

// titleWords counts a title's words, the years it names left out.
func titleWords(title string) int {
	n := 0
	for _, w := range analysis.MatchWords(title) {
		if !isYear(w) {
			n++
		}
	}
	return n
}

func isSessionKind(k index.Kind) bool { return k == index.KindBOF || k == index.KindMeet }

// buildRecurring collapses the recurring pairs into one line per session:
// the talks linked by them, earliest edition first.
func (d *detector) buildRecurring(pairs []pairInfo) []Recurring {
	root := map[int]int{}
	var find func(int) int
	find = func(x int) int {
		r, ok := root[x]
		if !ok || r == x {
			root[x] = x
			return x
		}
		r = find(r)
		root[x] = r
		return r
	}
	why := map[int][]string{}
	for _, p := range pairs {
		ri, rj := find(p.i), find(p.j)
		if ri != rj {
			root[max(ri, rj)] = min(ri, rj)
		}
		r := min(ri, rj)
		ev := []string{"same title"}
		if sharesSpeaker(d.spk[p.i], d.spk[p.j]) {
			ev = append(ev, "same speaker")
		}
		jac, _ := resemblance(d.shingles(p.i), d.shingles(p.j))
		switch {
		case p.kind == KindDuplicate || jac >= 0.9 || d.sameText(p.i, p.j):
			ev = append(ev, "same abstract")
		case jac >= resubmissionEditedMin:
			ev = append(ev, "edited abstract")
		}
		ev = append(ev, d.fixture(p.i, p.j))
		why[r] = append(why[r], ev...)
		why[r] = append(why[r], why[max(ri, rj)]...)
	}
	groups := map[int][]int{}
	for x := range root {
		groups[find(x)] = append(groups[find(x)], x)
	}
	out := []Recurring{}
	for r, g := range groups {
		sort.Slice(g, func(x, y int) bool { return d.editionBefore(g[x], g[y]) })
		rec := Recurring{Title: d.talks[g[len(g)-1]].Title}
		for _, k := range g {
			rec.Years = append(rec.Years, talkYear(d.talks[k]))
			rec.Conferences = append(rec.Conferences, d.talks[k].Conference.ID)
			rec.IDs = append(rec.IDs, d.talks[k].ID)
		}
		for _, e := range []string{"same title", "same speaker", "same abstract", "edited abstract"} {
			if slices.Contains(why[r], e) {
				rec.Evidence = append(rec.Evidence, e)
			}
		}
		for _, e := range why[r] {
			if (strings.HasPrefix(e, "kind ") || e == "short text" || e == "short title") && !slices.Contains(rec.Evidence, e) {
				rec.Evidence = append(rec.Evidence, e)
			}
		}
		out = append(out, rec)
	}
	sort.Slice(out, func(x, y int) bool {
		if len(out[x].IDs) != len(out[y].IDs) {
			return len(out[x].IDs) > len(out[y].IDs)
		}
		if out[x].Title != out[y].Title {
			return out[x].Title < out[y].Title
		}
		return out[x].IDs[0] < out[y].IDs[0]
	})
	return out
}

// editionBefore orders two talks by their start (talks without one last),
// then by conference id and talk id.
func (d *detector) editionBefore(i, j int) bool {
	a, b := d.talks[i], d.talks[j]
	if a.Start != nil && b.Start != nil && !a.Start.Equal(*b.Start) {
		return a.Start.Before(*b.Start)
	}
	if (a.Start == nil) != (b.Start == nil) {
		return a.Start != nil
	}
	if a.Conference.ID != b.Conference.ID {
		return a.Conference.ID < b.Conference.ID
	}
	return a.ID < b.ID
}

// shortSlot is the longest slot that is an opening, a welcome or an
// announcement rather than a talk an attendee chooses.
const shortSlot = 10 * time.Minute

// clashCandidate says whether talk k can clash with a similar one: a
// break or meeting, or a slot of shortSlot or less (a devroom's welcome),
// cannot, unless its text is specific (minTerms terms or more once the
// boilerplate is left out).
func (d *detector) clashCandidate(k int) bool {
	t := d.talks[k]
	if t.Kind != index.KindBreak && t.Kind != index.KindMeet &&
		(t.Start == nil || t.End == nil || t.End.Sub(*t.Start) > shortSlot) {
		return true
	}
	return d.vecs[k].Len() >= minTerms
}
