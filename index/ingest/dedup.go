package ingest

import (
	"math"
	"slices"
	"strings"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/analysis"
)

// Measured on the seeds: every paragraph of a dump shares all its
// three-word shingles (1.0) with the talk it belongs to and at most 0.17
// with any other talk. The threshold sits between, low enough for the
// near-duplicates of the tests (typography, re-wrapping, edited words).
const (
	// matchContainment is the share of a paragraph's shingles that must occur
	// in a talk's abstract for the paragraph to be that talk's.
	matchContainment = 0.6
)

// Merge records that a seed file repeated a talk already known.
type Merge struct {
	TalkID     string
	Title      string
	File       string
	Paragraphs int // paragraphs of File matched to the talk
}

// known is a talk under construction with its matching data.
type known struct {
	talk  index.Talk
	paras []string // the abstract's paragraphs
	// folded holds the folded words of the abstract between spaces, for
	// paragraphs too short to have shingles.
	folded string
	// firstFile is the seed file the talk was first found in.
	firstFile string
}

// addSource records that file, read, holds the talk too.
func (k *known) addSource(file string) {
	if !slices.Contains(k.talk.ReadFrom, file) {
		k.talk.ReadFrom = append(k.talk.ReadFrom, file)
	}
	if !slices.Contains(k.talk.Sources, file) {
		k.talk.Sources = append(k.talk.Sources, file)
	}
}

// merger assigns the paragraphs of abstract dumps to talks: to a known talk
// when the paragraph repeats it, otherwise to a talk of its own made by
// grouping continuous paragraphs.
type merger struct {
	talks []*known
	// byShingle lists, for each shingle, the talks whose abstract has it:
	// matching a paragraph looks up its shingles instead of comparing it
	// with every talk.
	byShingle   map[uint64][]int
	scheduledID map[string]int // index of each scheduled talk by id
	idf         map[string]float64
	merges      []Merge
}

func newMerger() *merger {
	return &merger{byShingle: map[uint64][]int{}, scheduledID: map[string]int{}}
}

// add makes t a known talk and returns its index.
func (m *merger) add(t index.Talk, firstFile string) int {
	i := len(m.talks)
	paras := splitParagraphs(t.Abstract)
	t.Abstract = ""
	m.talks = append(m.talks, &known{talk: t, firstFile: firstFile, folded: " "})
	for _, p := range paras {
		m.addParagraph(i, p)
	}
	return i
}

// addParagraph adds paragraph p to the abstract of talk i and to the
// matching data. analysis.Shingles are taken per paragraph, so a talk grown one
// paragraph at a time matches as if it had been read whole.
func (m *merger) addParagraph(i int, p string) {
	k := m.talks[i]
	k.paras = append(k.paras, p)
	k.talk.Abstract = joinParagraphs(k.paras)
	k.folded += strings.Join(analysis.MatchWords(p), " ") + " "
	for _, s := range analysis.Shingles(p) {
		ts := m.byShingle[s]
		if len(ts) == 0 || ts[len(ts)-1] != i {
			m.byShingle[s] = append(ts, i)
		}
	}
}

// addScheduled adds a talk of a schedule page. The same session (same
// title and start) on two schedule pages is one talk with both sources,
// the links of both, cancelled when either says so. A title marked
// "CANCELLED" is read as the structured formats read it (gathered).
func (m *merger) addScheduled(t index.Talk) {
	markCancelled(&t)
	if i, ok := m.scheduledID[t.ID]; ok {
		k := &m.talks[i].talk
		k.Cancelled = k.Cancelled || t.Cancelled
		k.AddLinks(t.Links...)
		for _, s := range t.ReadFrom {
			m.talks[i].addSource(s)
			m.merges = append(m.merges, Merge{TalkID: t.ID, Title: t.Title, File: s})
		}
		return
	}
	first := ""
	if len(t.ReadFrom) > 0 {
		first = t.ReadFrom[0]
	}
	m.scheduledID[t.ID] = m.add(t, first)
}

// match returns the index of the known talk that contains paragraph p, or
// -1. prefer is the talk of the previous paragraph, which wins a tie (a
// short paragraph such as "What you'll learn:" may occur in several talks);
// other ties go to the talk known first.
func (m *merger) match(p string, prefer int) int {
	words := strings.Join(analysis.MatchWords(p), " ")
	if words == "" {
		return -1
	}
	sh := analysis.Shingles(p)
	score := map[int]float64{}
	if len(sh) < 2 {
		// Too short for shingles to mean anything: exact words only.
		for i, k := range m.talks {
			if strings.Contains(k.folded, " "+words+" ") {
				score[i] = 1
			}
		}
	} else {
		for _, s := range sh {
			for _, i := range m.byShingle[s] {
				score[i] += 1 / float64(len(sh))
			}
		}
	}
	best, bestScore := -1, 0.0
	for i, sc := range score {
		better := sc > bestScore+1e-9 ||
			(sc > bestScore-1e-9 && (i == prefer || (best != prefer && i < best)))
		if better {
			best, bestScore = i, sc
		}
	}
	if bestScore < matchContainment-1e-9 {
		return -1
	}
	return best
}

// contextParagraphs bounds the paragraphs of a group that continues looks
// at: abstracts are a few paragraphs long, and a runaway group must not
// make ingestion quadratic.
const contextParagraphs = 10

// addDump assigns every paragraph of one abstract dump. It walks the file in
// order; a paragraph that repeats a known talk merges into it; the others
// form groups of continuous paragraphs (see continues), each a new talk
// known only from the abstract dumps.
func (m *merger) addDump(d *AbstractDump, file string) {
	open := -1 // the abstract-only talk that the next paragraph may continue
	prev := -1
	counts := map[int]int{}
	createdHere := map[int]bool{}
	var order []int
	for _, p := range d.Paragraphs {
		if i := m.match(p.Text, prev); i >= 0 {
			open, prev = -1, i
			if createdHere[i] {
				continue // a paragraph repeated inside one file
			}
			if counts[i] == 0 {
				order = append(order, i)
			}
			counts[i]++
			m.talks[i].addSource(file)
			if !m.talks[i].talk.Scheduled {
				open = i // an abstract-only talk seen again may go on here
			}
			continue
		}
		if open >= 0 {
			paras := m.talks[open].paras
			if m.continues(paras[max(0, len(paras)-contextParagraphs):], p.Text) {
				m.addParagraph(open, p.Text)
				continue
			}
		}
		t := index.Talk{
			Title:    DerivedTitle(p.Text),
			Abstract: p.Text,
			Kind:     index.KindTalk,
			Sources:  []string{file},
			ReadFrom: []string{file},
		}
		t.ID = TalkID(t.Title, AbstractIdentity(p.Text))
		open = m.add(t, file)
		prev = open
		createdHere[open] = true
	}
	for _, i := range order {
		k := m.talks[i]
		m.merges = append(m.merges, Merge{TalkID: k.talk.ID, Title: k.talk.Title, File: file, Paragraphs: counts[i]})
	}
}

// Continuity thresholds (see continues).
const (
	// cohesionContinue: this share of a paragraph's topic weight (idf of its
	// stemmed content words) already present in the talk so far continues
	// the talk. Measured on the seeds: paragraphs that begin a talk share at
	// most 0.2 with the talk before them.
	cohesionContinue = 0.3
	// cohesionOpener: a paragraph opening like a continuation ("We …") but
	// able to begin an abstract too needs only this much shared topic.
	cohesionOpener = 0.1
	// minAbstractWords: a group shorter than this is a lead-in ("torch.compile
	// is the goto mechanism …"), not a whole abstract, so it takes the next
	// paragraph. Every abstract-only talk of the seeds is longer.
	minAbstractWords = 50
)

// continues decides whether paragraph p goes on the talk whose paragraphs
// so far are group, rather than beginning a new talk. The dumps separate
// paragraphs and talks alike by a blank line, so the decision rests on how
// abstracts are written, in this order:
//
//   - A group ending with ":" announces what follows; a group that is only
//     a "TLDR: …" summary is followed by its body.
//   - An abstract introduces its talk once. A paragraph opening with "This
//     talk", "In this talk", "This session" … continues a group that has not
//     yet said what the talk does (the group was context: "LLM systems
//     increasingly rely on …") and begins a new talk after a group that has
//     ("… We demonstrate …").
//   - A "Label: …" paragraph after another one is the next item of a list.
//   - A group of fewer than minAbstractWords words is a lead-in.
//   - A paragraph that cannot begin an abstract continues: "Finally",
//     "Attendees", "Results:", "Library:", "The core of the talk" (see
//     refersBack).
//   - Otherwise p continues when enough of its rare terms already occur in
//     the group (cohesion), or when it opens like a continuation ("We",
//     "Our") and shares at least a few; it begins a new talk when not.
//
// On the seeds, these rules alone (without the schedule to match against)
// split the four dumps into exactly the talks of the full ingest; see
// TestSplitWithoutSchedule.
func (m *merger) continues(group []string, p string) bool {
	if len(group) == 0 {
		return false
	}
	last := group[len(group)-1]
	switch {
	case strings.HasSuffix(last, ":"):
		return true
	case len(group) == 1 && isSummary(group[0]):
		return true
	case introducesTalk(p):
		return !presentsTalk(group)
	case isLabelled(last) && isLabelled(p):
		return true
	case len(strings.Fields(strings.Join(group, " "))) < minAbstractWords:
		return true
	case refersBack(p):
		return true
	}
	c := m.cohesion(group, p)
	return c >= cohesionContinue || (weakOpener(p) && c >= cohesionOpener)
}

// isSummary reports whether p is a one-line summary ("TLDR: …") that an
// abstract opens with before its body.
func isSummary(p string) bool {
	return hasAnyPrefix(analysis.FoldText(p), []string{"tldr", "tl;dr", "tl, dr", "summary:"})
}

// introOpeners begin a paragraph that says what the talk is about.
var introOpeners = []string{
	"this talk", "in this talk", "this session", "in this session", "this presentation",
	"in this presentation", "this lightning talk", "in this lightning talk", "the talk ",
}

func introducesTalk(p string) bool {
	return hasAnyPrefix(analysis.FoldText(p), introOpeners)
}

// presentingPhrases say what the talk does; a group containing one has
// introduced its talk.
var presentingPhrases = []string{
	"this talk", "this session", "this presentation", "this lightning talk", "the talk ",
	"we present", "we introduce", "we demonstrate", "we will ", "we'll ", "i will ", "i'll ",
	"we share", "we highlight", "we cover", "we describe", "we discuss", "we explore", "we show",
	"attendees", "participants", "join us", "you will learn", "you'll learn",
}

func presentsTalk(group []string) bool {
	if len(group) > 0 && isSummary(group[0]) {
		group = group[1:] // the summary says what the body will say again
	}
	f := " " + analysis.FoldText(strings.Join(group, " "))
	for _, ph := range presentingPhrases {
		if strings.Contains(f, " "+ph) {
			return true
		}
	}
	return false
}

// isLabelled reports whether p opens with a short label and a colon, as in
// "Serving: Multi-region TorchServe …".
func isLabelled(p string) bool {
	label, _, ok := strings.Cut(p, ": ")
	if !ok {
		label, ok = strings.CutSuffix(strings.SplitN(p, "\n", 2)[0], ":")
	}
	return ok && label != "" && len(strings.Fields(label)) <= 3
}

// cohesion is the idf-weighted share of p's topic terms found in group.
func (m *merger) cohesion(group []string, p string) float64 {
	g := analysis.TopicTerms(strings.Join(group, "\n"))
	var shared, total float64
	for t := range analysis.TopicTerms(p) {
		w := m.idf[t]
		total += w
		if _, ok := g[t]; ok {
			shared += w
		}
	}
	if total == 0 {
		return 0
	}
	return shared / total
}

// backReferences open a paragraph that cannot begin an abstract: it goes
// on with a list, a result, a conclusion or a part of a talk introduced
// before.
var backReferences = []string{
	"attendees", "participants", "finally", "moreover", "additionally", "furthermore", "however",
	"also", "in addition", "in particular", "for example", "for each", "for the first", "the second",
	"the third", "these works", "this work", "this enables", "using this", "building on", "in this quest",
	"results", "library:", "paper:", "code:", "prerequisites", "what you", "who should", "key takeaways",
	"lastly", "then ", "next,", "- ", "• ", "1. ",
}

// weakOpeners open a paragraph that usually continues ("We will share …")
// but may begin an abstract too; they need some shared terms.
var weakOpeners = []string{
	"we ", "we'", "our ", "i ", "i'", "it ", "its ", "they ", "their ", "these ", "to support",
	"join us", "the goal", "the approach", "beyond", "specifically", "some of",
}

// refersBack reports a back reference: a back-reference opener, or a first
// sentence that speaks of "the talk" as already introduced ("The core of
// the talk …", "The second part of the talk …").
func refersBack(p string) bool {
	f := analysis.FoldText(p)
	if hasAnyPrefix(f, backReferences) {
		return true
	}
	first, _, _ := strings.Cut(f, ". ")
	return !hasAnyPrefix(f, introOpeners) && (strings.Contains(first, " the talk") || strings.Contains(first, " the session"))
}

func weakOpener(p string) bool {
	return hasAnyPrefix(analysis.FoldText(p), weakOpeners)
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, x := range prefixes {
		if strings.HasPrefix(s, x) {
			return true
		}
	}
	return false
}

// computeIDF weighs topic terms by how rare they are among the distinct
// paragraphs of all seeds: "pytorch" says little, "jacobian" a lot.
func computeIDF(paras []string) map[string]float64 {
	seen := map[string]bool{}
	df := map[string]int{}
	n := 0
	for _, p := range paras {
		key := strings.Join(analysis.MatchWords(p), " ")
		if key == "" || seen[key] {
			continue
		}
		seen[key] = true
		n++
		for t := range analysis.TopicTerms(p) {
			df[t]++
		}
	}
	idf := make(map[string]float64, len(df))
	for t, c := range df {
		idf[t] = math.Log(float64(n+1) / float64(c))
	}
	return idf
}
