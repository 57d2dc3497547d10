package overlap

import (
	"hash/fnv"
	"slices"
	"strings"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/analysis"
)

// A pair of submissions of one kind by the same speaker whose texts reach
// resubmissionMinCos is one proposal submitted twice, reworded: a
// committee merges or picks one, as for an edited copy. (A speaker's
// keynote and the Meet-the-Maintainers session of the same project are two
// sessions, not one proposal twice: kinds differ.) The shared speaker
// closes speakerEvidence of the gap between the text score and 1, so such
// a pair ranks above pairs of strangers on the same topic (a reworded
// resubmission at cosine 0.34 scores 0.60). Below resubmissionMinCos two
// talks by one person are just two talks.
const (
	resubmissionMinCos = 0.3
	speakerEvidence    = 0.4
)

// speakerKey is how a speaker is recognised on another submission: by the
// source's id of the person (pretalx speaker code), else by the name
// folded (case, accents, punctuation and spacing ignored), so "José
// García" and "jose garcia" are one person. A person with an id on one
// talk and none on another is matched by name, so each speaker has both
// keys.
func speakerKeys(sp index.Speaker) []string {
	var keys []string
	if id := strings.TrimSpace(sp.SourceID); id != "" {
		keys = append(keys, "id\x00"+id)
	}
	if name := normName(sp.Name); name != "" {
		keys = append(keys, "name\x00"+name)
	}
	return keys
}

// normName is a name in comparison form: "  José  GARCÍA " is "jose garcia".
func normName(name string) string { return strings.Join(analysis.MatchWords(name), " ") }

// speakerSet is a talk's speakers as sorted hashes of their keys, and for
// each hash the speaker's position, so the shared ones can be named.
type speakerSet struct {
	hashes []uint64
	who    []int // index into the talk's Speakers, parallel to hashes
}

func newSpeakerSet(t index.Talk) speakerSet {
	var s speakerSet
	type hk struct {
		h   uint64
		who int
	}
	var all []hk
	for k, sp := range t.Speakers {
		for _, key := range speakerKeys(sp) {
			h := fnv.New64a()
			h.Write([]byte(key))
			all = append(all, hk{h.Sum64(), k})
		}
	}
	slices.SortFunc(all, func(a, b hk) int {
		if a.h != b.h {
			if a.h < b.h {
				return -1
			}
			return 1
		}
		return a.who - b.who
	})
	for _, x := range all {
		if n := len(s.hashes); n > 0 && s.hashes[n-1] == x.h {
			continue
		}
		s.hashes = append(s.hashes, x.h)
		s.who = append(s.who, x.who)
	}
	return s
}

// sharesSpeaker reports whether the two sets have a speaker in common.
func sharesSpeaker(a, b speakerSet) bool {
	i, j := 0, 0
	for i < len(a.hashes) && j < len(b.hashes) {
		switch {
		case a.hashes[i] < b.hashes[j]:
			i++
		case a.hashes[i] > b.hashes[j]:
			j++
		default:
			return true
		}
	}
	return false
}

// sharedSpeakers names the speakers of a also on b, as a writes them, in
// a's order.
func sharedSpeakers(a index.Talk, as, bs speakerSet) []string {
	var who []int
	i, j := 0, 0
	for i < len(as.hashes) && j < len(bs.hashes) {
		switch {
		case as.hashes[i] < bs.hashes[j]:
			i++
		case as.hashes[i] > bs.hashes[j]:
			j++
		default:
			if !slices.Contains(who, as.who[i]) {
				who = append(who, as.who[i])
			}
			i++
			j++
		}
	}
	slices.Sort(who)
	out := make([]string, 0, len(who))
	for _, k := range who {
		out = append(out, a.Speakers[k].Name)
	}
	return out
}

// speakerScore turns a topical pair by the same speaker into a
// resubmission (see resubmissionMinCos). It is the hook of detector.score.
func (d *detector) speakerScore(p *pairInfo) {
	if p.kind != KindTopical || p.cos < resubmissionMinCos || d.talks[p.i].Kind != d.talks[p.j].Kind ||
		!sharesSpeaker(d.spk[p.i], d.spk[p.j]) {
		return
	}
	// A text of a few words ("FOSDEM welcome and opening talk.") by the
	// person who opens and closes every year says nothing of a proposal
	// submitted again: only a long enough text is evidence.
	if min(d.vecs[p.i].Len(), d.vecs[p.j].Len()) < minTerms {
		return
	}
	p.kind = KindSameSpeaker
	p.score = 1 - (1-p.cos)*(1-speakerEvidence)
}

// decorate adds to a reported pair who gives the talks, where and when:
// the pair cards show them, and a shared speaker is evidence.
func (d *detector) decorate(out *Pair, p pairInfo) {
	a, b := d.talks[p.i], d.talks[p.j]
	out.SharedSpeakers = sharedSpeakers(a, d.spk[p.i], d.spk[p.j])
	out.SpeakersA, out.SpeakersB = speakerNames(a), speakerNames(b)
	out.RoomA, out.RoomB = a.Room, b.Room
	out.StartA, out.StartB = a.Start, b.Start
	out.ConferenceA, out.ConferenceB = a.Conference.ID, b.Conference.ID
	out.YearA, out.YearB = talkYear(a), talkYear(b)
}

func speakerNames(t index.Talk) []string {
	out := make([]string, 0, len(t.Speakers))
	for _, sp := range t.Speakers {
		out = append(out, sp.Name)
	}
	return out
}
