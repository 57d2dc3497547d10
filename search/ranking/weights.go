package ranking

import (
	"math"

	"github.com/talksearch/talksearch/index"
)

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
// those sessions. The description (the longer text some sources keep
// beside the abstract) weighs less than the abstract: the abstract is the
// speaker's summary of what the talk is about, the description its
// details, background and asides, so a word only there is weaker evidence
// of the subject; still it is the only text of some talks, and must find
// them.
var Fields = []FieldWeight{
	{index.FieldTitle, 3},
	{index.FieldSpeakers, 2},
	{index.FieldAbstract, 1},
	{index.FieldDescription, 0.8},
	{index.FieldTrackText, 1.5},
	{index.FieldRoomText, 1.5},
}

// tunedFields is how many fields Fields had when the weights of the
// phrase, proximity and other clauses beside a word's were set.
const tunedFields = 5

// FieldCoord scales the clauses of a word's disjunction over Fields.
// Bleve multiplies a disjunction's score by the share of its clauses that
// match, so every field added to Fields would lower the weight of each
// word, in talks that do not even have the new field's text, against the
// clauses beside it. Scaled, a word matched in k fields scores
// k/tunedFields of their sum whatever the number of fields.
func FieldCoord() float64 { return float64(len(Fields)) / tunedFields }

// CombineFields is the score of a word's clause over Fields in a talk
// where the word matches matched of the clause's clauses fields, their
// scores adding up to sum: the sum times the share of the fields matched,
// as Bleve scores a disjunction, but a share of at most CappedFields. Bleve's share
// counts a word said in k fields about k² times one said in one, and in a
// query of several concepts a talk repeating one of them in its title,
// abstract, description, track and room outranks talks with more of
// them. A word in the title and the abstract still counts twice the sum,
// as it did: said in both, it is what the talk is about.
func CombineFields(sum float64, matched, clauses int) float64 {
	return sum * float64(min(matched, CappedFields)) / float64(clauses)
}

// DescribedWords is the fewest rarer (not common) words of a query, not a
// question, that describe its subject: "translating software into other
// languages", "finding bugs with random inputs", "saving energy in data
// centers". A talk whose title names one of them ("A Bug in Your Ear",
// "Concise Common Workflow Language") is about that word, rarely about
// what the words say together; the talks about it name it in words of
// their own (fuzzing, localisation) and say the query's words in their
// abstracts. Queries of two or three words name their subject (`arm gpu
// drivers`), where the title's weight is what finds it.
const DescribedWords = 4

// DescribedTitle scales a word's title weight in a query of
// DescribedWords words or more; the agreement of every concept in the
// title (AllInTitle) is not scaled.
const DescribedTitle = 0.6

// CappedFields is the most fields whose share CombineFields counts.
const CappedFields = 2

// CappedFieldsWords is the fewest content words of a query whose words'
// clauses combine their fields by CombineFields; a shorter query's
// combine them as Bleve does. A query of one or two words is mostly one
// concept ("libreoffice", "garbage collection"): the talk saying it in
// every field, its devroom's track and room included, is the talk about
// it, and no other concept competes.
const CappedFieldsWords = 3

// Balance is the score of the clause of a query's concepts (one clause
// per concept, each over its fields) in a talk matching matched of its
// clauses concepts, their scores adding up to sum and their squares to
// squares: Bleve's disjunction score (the sum times the share matched)
// times how evenly the talk says the concepts, when it says them all. A
// talk about containers that names security once in a long abstract is
// no talk about container security; the coordination counts the concept
// matched all the same. The evenness of n scores is n/(n−1)·(1 − Σs²/(Σs)²),
// 1 for equal scores and near 0 for one score far above the rest (for
// two, 4ab/(a+b)²), raised to BalancePower. A talk missing a concept is
// the coordination's to rank, and keeps the disjunction's score.
func Balance(sum, squares float64, matched, clauses int) float64 {
	score := sum * float64(matched) / float64(clauses)
	if matched < clauses || matched < 2 || sum <= 0 {
		return score
	}
	n := float64(matched)
	even := n / (n - 1) * (1 - squares/(sum*sum))
	return score * math.Pow(max(even, 0), BalancePower)
}

// BalancePower is the power of the evenness Balance multiplies by.
const BalancePower = 0.35

// BalancedRarity is the least ratio of the rarer's weight in the
// coordination the other word of two concepts has for Balance to rank
// them (search/pair.go).
const BalancedRarity = 0.75

// PairAdjacentShare is the share of the talks holding both words of a
// two-word query below which the words, side by side in fewer of them,
// are two concepts rather than one compound noun (search/pair.go).
const PairAdjacentShare = 0.1

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
	// AgentNoun: the doer of the word's action ("contributor" for
	// "contributing"), a near form the stemmer keeps apart.
	AgentNoun = 0.5
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

// Agreement boosts (search/agreement.go): a talk whose title, or whose
// abstract, holds every concept of a query of several scores again, at any
// distance and in any order. In the title it is worth the whole input as
// a phrase there; in the abstract a neighbouring pair there.
const (
	AllInTitle    = 2 * Phrase
	AllInAbstract = Phrase / 2
)

// AskedTitle boosts a question's concept of most weight in the
// coordination in a talk's title (search/agreement.go): a talk named after
// the rarest thing asked about. Below AllInTitle: at it, one word of a
// question in a title outranks a title holding all the others.
const AskedTitle = 2

// Break scales the score of breaks (coffee, lunch) so that they rank below
// sessions unless the query is about them.
const Break = 0.1

// Cancelled scales the score of a cancelled talk: below a talk held that
// matches as well, still above talks that match much worse, so that a
// query naming it finds it near the top.
const Cancelled = 0.5

// Damping says which of the damping factors apply to a talk whatever the
// query (Factors.Of): a talk may be a break and cancelled at once.
type Damping uint8

const (
	DampBreak Damping = 1 << iota
	DampCancelled
)

// DampingOf is the damping of a talk.
func DampingOf(t *index.Talk) Damping {
	var d Damping
	if t.Kind == index.KindBreak {
		d |= DampBreak
	}
	if t.Cancelled {
		d |= DampCancelled
	}
	return d
}

// CommonShare is the share of talks above which a word is common: common
// words together count as one word of the query.
const CommonShare = 0.2

// RescoreWindow is the number of a request's best talks, by the required
// part's score, whose optional part (common words, proximity, associated
// terms) a scan of a large corpus scores: ten pages of 20 (a later page
// widens it to reach the page). The optional part only adds to a score,
// so a talk of the window ends up at least as high as every talk outside
// it. Common words match descriptions too, long texts that lift a talk
// further than an abstract does: a window of five pages missed talks
// of a judged query's first page that the optional part lifts onto it.
const RescoreWindow = 200

// Related talks (search/related.go): a candidate is related to a talk when
// they share RelatedMinShared distinctive terms, or one and their track or
// a speaker. A term is distinctive unless more than RelatedGenericShare of
// the talks use it (and more than RelatedGenericTalks talks, so that a
// small corpus keeps its words): on a 20-year archive of a free-software
// conference "free" or "open" alone says nothing about two talks.
const (
	RelatedMinShared    = 2
	RelatedGenericShare = 0.05
	RelatedGenericTalks = 10
	// RelatedMinTermLetters: a shared term shorter than this neither
	// counts nor shows unless it is a known acronym ("AI", "OS"); shorter
	// terms are mostly pieces of names ("i2" of I2C).
	RelatedMinTermLetters = 3
	// RelatedSameEdition multiplies the score of a talk of the same
	// conference edition: an attendee can go to it.
	RelatedSameEdition = 1.1
	// RelatedYearDecay multiplies the score of a talk once per year it is
	// older than the talk it is related to: newer talks first.
	RelatedYearDecay = 0.97
)
