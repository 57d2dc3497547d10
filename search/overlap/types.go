package overlap

import (
	"fmt"
	"time"
)

// Kinds of overlap between two talks.
const (
	KindDuplicate     = "duplicate"      // the same text (merged at ingest, or identical submissions)
	KindNearDuplicate = "near-duplicate" // the same text, edited
	KindTopical       = "topical"        // different texts about the same thing
	// KindResubmission is a reworded text by the same speaker: the same
	// proposal submitted again.
	KindResubmission = "resubmission"
)

// Thresholds used when Options leave them at zero. They were chosen on the
// seeds (see detect_test.go): at DefaultMin the pairs a program committee
// flags are in and talks sharing only "PyTorch", "training" or "GPU" are out.
const (
	// DefaultMin is the lowest score of a reported pair.
	DefaultMin = 0.13
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
}

// Report is everything the organizers see; its JSON form is the API's and
// `talksearch overlaps --json`'s.
type Report struct {
	Pairs []Pair `json:"pairs"` // best first
	// More is how many pairs scored at least Min but were left out by
	// MaxPairs.
	More     int       `json:"more,omitempty"`
	Clusters []Cluster `json:"clusters"` // groups of linked talks, largest first
	Clashes  []Clash   `json:"clashes"`  // similar talks in overlapping slots, best first
	// MoreClashes is how many clashes MaxPairs left out.
	MoreClashes int `json:"more_clashes,omitempty"`
	// Merged are the exact duplicates ingestion already folded into one talk
	// (a talk found in several dumps), with the dumps it came from.
	Merged []Merged `json:"merged"`
	// Skipped are the rows of imported submissions files that were
	// skipped, merged or repaired, and Files the counts per file; set by
	// the importer's caller, empty for the seeds.
	Skipped []RowError `json:"skipped,omitempty"`
	Files   []Summary  `json:"files,omitempty"`
	// Conflicts are the schedule's problems: a speaker in two overlapping
	// slots, two talks of one track at once, similar talks in parallel.
	Conflicts []Conflict `json:"conflicts"`
	// MoreConflicts is how many conflicts MaxPairs left out (the last
	// kinds: similar talks first, then tracks).
	MoreConflicts int `json:"more_conflicts,omitempty"`
	// Resubmissions are talks of one conference that come back at a later
	// one (same or edited abstract, new title, same speaker), latest
	// first; empty with one conference loaded.
	Resubmissions []Resubmission `json:"resubmissions"`
	// MoreResubmissions is how many MaxPairs left out.
	MoreResubmissions int `json:"more_resubmissions,omitempty"`
	// similar answers Talk; nil for a report not made by Detect.
	similar *similarIndex
}

// Pair is two talks that overlap, and why.
type Pair struct {
	A           string   `json:"a"` // talk ids, as in `talksearch export`
	B           string   `json:"b"`
	Score       float64  `json:"score"` // 0..1
	Kind        string   `json:"kind"`
	SharedTerms []string `json:"shared_terms"` // most distinctive first, as written in the texts
	Passages    Passages `json:"passages"`
	// TitleA and TitleB are the talks' titles, so a page or terminal can
	// show the pair without looking the ids up.
	TitleA string `json:"title_a"`
	TitleB string `json:"title_b"`
	// SharedSpeakers are the speakers on both submissions: with similar
	// texts, the evidence of a resubmission.
	SharedSpeakers []string `json:"shared_speakers,omitempty"`
	// Speakers, rooms and starts of both talks, for the pair cards.
	SpeakersA []string   `json:"speakers_a,omitempty"`
	SpeakersB []string   `json:"speakers_b,omitempty"`
	RoomA     string     `json:"room_a,omitempty"`
	RoomB     string     `json:"room_b,omitempty"`
	StartA    *time.Time `json:"start_a,omitempty"`
	StartB    *time.Time `json:"start_b,omitempty"`
	// ConferenceA and ConferenceB are the talks' conference ids.
	ConferenceA string `json:"conference_a,omitempty"`
	ConferenceB string `json:"conference_b,omitempty"`
	// Resemblance is the share of word 3-grams the two texts have in common
	// (Jaccard, 0..1): near 1 means the same text, edited.
	Resemblance float64 `json:"resemblance"`
}

// Passages are the sentences of each abstract that carry the shared terms,
// HTML-escaped with the shared words wrapped in <mark>.
type Passages struct {
	A []string `json:"a"`
	B []string `json:"b"`
}

// Cluster is a group of talks linked by pairs.
type Cluster struct {
	IDs    []string `json:"ids"`
	Label  string   `json:"label"`  // the terms the cluster shares most
	Titles []string `json:"titles"` // the titles of IDs, in the same order
}

// Clash is two similar talks scheduled at overlapping times in different rooms.
type Clash struct {
	A      string  `json:"a"`
	B      string  `json:"b"`
	Score  float64 `json:"score"`
	TitleA string  `json:"title_a"`
	TitleB string  `json:"title_b"`
	RoomA  string  `json:"room_a"`
	RoomB  string  `json:"room_b"`
	// Start and End are the span both talks share.
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
}

// Merged is one talk that ingestion found in several dumps and merged.
type Merged struct {
	ID      string   `json:"id"`
	Title   string   `json:"title"`
	Sources []string `json:"sources"`
}

// RowError is one row of a submissions file that was skipped, merged or
// repaired, and why.
type RowError struct {
	File string `json:"file,omitempty"`
	// Line is the 1-based line of the file where the row starts; for a
	// document read whole, the submission's position in it.
	Line   int    `json:"line"`
	Action string `json:"action"` // ActionSkipped, ActionRepaired or ActionMerged
	Reason string `json:"reason"`
}

func (e RowError) Error() string {
	return fmt.Sprintf("%s:%d: %s: %s", e.File, e.Line, e.Action, e.Reason)
}
