package ranking

import "github.com/talksearch/talksearch/index"

// FieldWeight is the weight of a match of a query word in one field.
type FieldWeight struct {
	Field  string
	Weight float64
}

// Fields are the weights of a plain word in each field it is searched in.
// A title match outranks an abstract-only one; speakers (names and
// affiliations) sit between, so "Meta" finds the talks given by Meta
// people before talks that merely mention Meta. The track and room names
// make "keynote", "lightning talks about rust" and "Master Stage" find
// those sessions.
var Fields = []FieldWeight{
	{index.FieldTitle, 3},
	{index.FieldSpeakers, 2},
	{index.FieldAbstract, 1},
	{index.FieldTrackText, 1.5},
	{index.FieldRoomText, 1.5},
}

// FieldNames are the fields of Fields, in its order: the analysed fields a
// query word is searched in.
func FieldNames() []string {
	out := make([]string, len(Fields))
	for i, fw := range Fields {
		out[i] = fw.Field
	}
	return out
}

// Weights of the alternatives of a word relative to the word as typed
// (Literal).
const (
	// Literal: the word as typed, or a spelling of it the corpus uses
	// (hyphenated, joined).
	Literal = 1.0
	// Synonym: an expansion ("mixture of experts" for "MoE") counts, but
	// less than the literal word.
	Synonym = 0.5
	// Correction: a correction of a word the index does not know. The
	// typed word matches nothing, so this weight only ranks corrected
	// words against the query's other words.
	Correction = 0.7
	// Completion: a completion of the word being typed is a guess.
	Completion = 0.7
	// Joined: two neighbouring words joined as the corpus writes them
	// ("dual pipe" for DualPipe) stand for both.
	Joined = 0.5
	// CompoundPart: the terms of a compound word (`torch.compile`)
	// matched apart; the compound matches as a phrase of them.
	CompoundPart = 0.1
	// Association: a term the talks use with the query's words (assoc.go),
	// never counted by the coordination.
	Association = 0.3
)

// Proximity boosts: talks with the query's words next to each other score
// again, for the whole input typed as a phrase and for each pair of
// neighbouring words.
const (
	Phrase = 1.5
	// WholeInTitle is the whole input as a phrase in the title, or typed
	// whole as a room's or a track's name ("Master Stage").
	WholeInTitle    = 3 * Phrase
	WholeInSpeakers = 2 * Phrase
	WholeInAbstract = Phrase
	PairInTitle     = Phrase
	PairInAbstract  = Phrase / 2
)

// Break scales the score of breaks (coffee, lunch) so that they rank below
// sessions unless the query is about them.
const Break = 0.1

// CommonShare is the share of talks above which a word is common: common
// words together count as one word of the query.
const CommonShare = 0.2

// RescoreWindow is the number of a request's best talks, by the required
// part's score, whose optional part (common words, proximity, associated
// terms) a scan of a large corpus scores: five pages of 20 (a later page
// widens it to reach the page). The optional part only adds to a score,
// so a talk of the window ends up at least as high as every talk outside
// it.
const RescoreWindow = 100
