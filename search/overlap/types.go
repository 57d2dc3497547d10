package overlap

import (
	"time"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/ingest"
)

// Kinds of finding between two talks.
const (
	KindDuplicate     = "duplicate"      // the same proposal twice in one call (identical texts)
	KindNearDuplicate = "near-duplicate" // the same proposal twice in one call, edited
	KindTopical       = "topical"        // different texts about the same thing
	// KindSameSpeaker is two proposals of one programme by the same
	// speaker on a similar subject: one proposal reworded, or two the
	// committee wants side by side.
	KindSameSpeaker = "same-speaker"
	// KindResubmission is a proposal that was in an earlier edition: the
	// same or an edited text, the same title, or the same speaker on a
	// similar text, at another conference.
	KindResubmission = "resubmission"
	// KindRecurring is a session held at every edition (Report.Recurring),
	// never listed among the pairs.
	KindRecurring = "recurring"
)

// Thresholds used when Options leave them at zero. They were chosen on the
// seeds (see detect_test.go): at DefaultMin the pairs a program committee
// flags are in and talks sharing only "PyTorch", "training" or "GPU" are out.
const (
	// DefaultMin is the lowest score of a reported pair.
	DefaultMin = 0.13
	// Floor is the lowest minimum a served report takes: the report is
	// made once at Floor and every minimum from Floor up filters it
	// (Report.AtLeast). It is DefaultClashMin, so the search for clashes
	// already finds every pair the report at Floor holds.
	Floor = DefaultClashMin
	// DefaultClashMin is the lowest score of a pair that counts as a clash
	// when the two talks run in parallel: splitting an audience matters at a
	// lower similarity than flagging a submission for merging does.
	DefaultClashMin = 0.10
	// DefaultMaxPairs bounds the pairs reported (best first): a committee
	// reads the top of the list, and each pair carries passages.
	DefaultMaxPairs = 1000
	// MaxClusterSize bounds a cluster: weaker links are dropped rather than
	// letting a chain of pairs join unrelated talks into one blob.
	MaxClusterSize = 8
)

// Options tune Detect.
type Options struct {
	// Min is the lowest pair score reported (0..1); 0 means DefaultMin.
	Min float64
	// ClashMin is the lowest score of a clash (0..1); 0 means DefaultClashMin.
	ClashMin float64
	// MaxPairs is the most pairs, and the most clashes, reported; 0 means
	// DefaultMaxPairs.
	MaxPairs int
	// Background are talks whose texts a call of fewer than SmallCall
	// talks borrows its term statistics from (the served conferences, or
	// the seeds); they are never paired.
	Background []index.Talk
}

// Report is everything the organizers see. Its JSON form, the API's and
// `talksearch overlaps --json`'s, is web's (web.OverlapsDoc).
type Report struct {
	Pairs []Pair // best first
	// More is how many pairs scored at least Min but were left out by
	// MaxPairs.
	More     int
	Clusters []Cluster // groups of linked talks, largest first
	Clashes  []Clash   // similar talks in overlapping slots, best first
	// MoreClashes is how many clashes MaxPairs left out.
	MoreClashes int
	// Merged are the exact duplicates ingestion already folded into one talk
	// (a talk found in several dumps), with the dumps it came from.
	Merged []Merged
	// Skipped are the rows of imported submissions files that were
	// skipped, merged or repaired, and Files the counts per file; set by
	// the caller from ingest.Importer, empty for the seeds.
	Skipped []RowError
	Files   []Summary
	// Conflicts are the schedule's problems: a speaker in two overlapping
	// slots, two talks of one track at once, similar talks in parallel.
	Conflicts []Conflict
	// MoreConflicts is how many conflicts MaxPairs left out (the last
	// kinds: similar talks first, then tracks).
	MoreConflicts int
	// Resubmissions are talks of one conference that come back at a later
	// one (same or edited abstract, new title, same speaker), latest
	// first; empty with one conference loaded.
	Resubmissions []Resubmission
	// MoreResubmissions is how many MaxPairs left out.
	MoreResubmissions int
	// Recurring are the sessions every edition holds, one line each.
	Recurring []Recurring
	// Applied and Unmatched count the committee's decisions (Apply) that
	// matched a finding of the report and those that did not.
	Applied, Unmatched int
	// similar answers Talk; nil for a report not made by Detect.
	similar *similarIndex
	// min is the minimum the pairs were found at, scores how many pairs
	// reached each hundredth from it, pairScores the unrounded scores of
	// Pairs, clusterBest each cluster's strongest pair: what AtLeast
	// filters by.
	min         float64
	scores      scoreCounts
	pairScores  []float64
	clusterBest []float64
	// talks are the compared talks by id (Info); scheduleConflicts counts
	// the speaker and track conflicts, before MaxPairs.
	talks             map[string]TalkInfo
	scheduleConflicts int
	// dropped is how many listed pairs decisions left out (Apply).
	dropped int
}

// Pair is two talks that overlap, and why.
type Pair struct {
	A           string // talk ids, as in `talksearch export`
	B           string
	Score       float64 // 0..1
	Kind        string
	SharedTerms []string // most distinctive first, as written in the texts
	Passages    Passages
	// TitleA and TitleB are the talks' titles, so a page or terminal can
	// show the pair without looking the ids up.
	TitleA string
	TitleB string
	// SharedSpeakers are the speakers on both submissions: with similar
	// texts, the evidence of a resubmission.
	SharedSpeakers []string
	// Speakers, rooms and starts of both talks, for the pair cards.
	SpeakersA []string
	SpeakersB []string
	RoomA     string
	RoomB     string
	StartA    *time.Time
	StartB    *time.Time
	// ConferenceA and ConferenceB are the talks' conference ids.
	ConferenceA string
	ConferenceB string
	// YearA and YearB are the talks' years (0: unknown).
	YearA, YearB int
	// Decision is the committee's (DecisionConfirmed, with its Note);
	// pairs decided not to overlap are not reported.
	Decision, Note string
	// Resemblance is the share of word 3-grams the two texts have in common
	// (Jaccard, 0..1): near 1 means the same text, edited.
	Resemblance float64
}

// Passages are the sentences of each abstract that carry the shared terms,
// HTML-escaped with the shared words wrapped in <mark>.
type Passages struct {
	A []string
	B []string
}

// Cluster is a group of talks linked by pairs.
type Cluster struct {
	IDs    []string
	Label  string   // the terms the cluster shares most
	Titles []string // the titles of IDs, in the same order
}

// Clash is two similar talks scheduled at overlapping times in different rooms.
type Clash struct {
	A      string
	B      string
	Score  float64
	TitleA string
	TitleB string
	RoomA  string
	RoomB  string
	// Start and End are the span both talks share.
	Start time.Time
	End   time.Time
}

// Merged is one talk that ingestion found in several dumps and merged.
type Merged struct {
	ID      string
	Title   string
	Sources []string
}

// RowError is one row of a submissions file that was skipped, merged or
// repaired, and why, and Summary one file's counts: the importer's
// accounting (index/ingest) that a report of submissions carries.
type (
	RowError = ingest.RowError
	Summary  = ingest.FileSummary
)
