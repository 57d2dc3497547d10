package search

import (
	"time"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search/highlight"
	"github.com/talksearch/talksearch/search/ranking"
)

// Sort orders of a search.
const (
	SortRelevance = "relevance"
	SortTime      = "time"
	// SortNewest lists the latest talks first (an archive's newest
	// edition leads); talks off the schedule come last.
	SortNewest = "newest"
)

// Request.Cancelled values: cancelled talks are kept (""), left out, or
// the only ones kept.
const (
	CancelledExclude = "exclude"
	CancelledOnly    = "only"
)

// Request is one search as a user (the page, the API, the CLI) asks it.
// Values of one facet combine with OR, different facets with AND.
type Request struct {
	Query  string
	Tracks []string
	Levels []string
	Rooms  []string
	// Days are dates ("2026-04-08") in each talk's own zone; Kinds are
	// index.Kind values; Conferences are conference ids; Languages are
	// the sources' language tags.
	Days        []string
	Kinds       []string
	Conferences []string
	Languages   []string
	// Scheduled keeps only the talks with a slot on a schedule.
	Scheduled bool
	// Cancelled is "" (cancelled talks are kept, ranked below the
	// others), CancelledExclude or CancelledOnly.
	Cancelled string
	// After and Before bound a talk's start time of day, in its own zone
	// ("14:00"): it starts at or after After and before Before. Either
	// keeps only scheduled talks.
	After  string
	Before string
	Sort   string // SortRelevance (default), SortTime or SortNewest
	Limit  int    // 0 means DefaultLimit
	Offset int
	// Explain asks each hit for the factors that made its score
	// (Hit.Explanation).
	Explain bool
}

// Explanation says how a value was made from its details
// (ranking.Explanation).
type Explanation = ranking.Explanation

// Result is the answer to a Request. Its JSON form is web's (web.SearchDoc):
// the engine's types are plain Go values.
type Result struct {
	Query  string
	Total  uint64
	TookMS float64
	Hits   []Hit
	Facets Facets
	// DidYouMean is the query to propose instead, "" for none.
	DidYouMean string
	// Corrected says the search already used DidYouMean's corrections
	// (a page says "Showing results for …"); false with a DidYouMean is
	// a proposal the search did not follow ("Did you mean …?").
	Corrected bool
	// Synonyms are the expansions the query used, as "MoE → mixture of
	// experts", so a page can say why a talk matched.
	Synonyms []string
	// Simplified says the query had more expensive parts (typo
	// corrections, phrases, compound words, words) than one search may
	// spend on (query.go, the cost model); the rest were searched as plain
	// words or not at all, as Note says.
	Simplified bool
	Note       string
	// Scope is the room or track the query names, whole ("H.2215",
	// "Ferrer"), nil for none: a page offers it as a filter above the
	// talks whose text matches the name, which rank as any query's do.
	Scope *Scope
}

// Scope is a facet value a query is the name of, and how many talks of
// the corpus have it.
type Scope struct {
	Facet string // "room" or "track"
	Value string // as the facet shows it
	Talks int
}

// Hit is one talk of a Result.
type Hit struct {
	ID         string
	Title      string
	Speakers   []index.Speaker
	Track      string // "" when the talk has none, as Level and Room
	Level      string
	Room       string
	Start      *time.Time
	End        *time.Time
	Kind       index.Kind
	Scheduled  bool
	Cancelled  bool
	Score      float64
	Highlights Highlights
	// Explanation is how Score was made, when the request asked
	// (Request.Explain); its Value is Score.
	Explanation *Explanation
}

// Highlights are HTML fragments: data-set text is escaped and the matched
// words are wrapped in highlight.MarkOpen and MarkClose, the only markup
// they may contain.
type Highlights = highlight.Fragments

// Facets counts the talks of a result per track, level, room, day, kind,
// conference and language, each ordered by count (descending), then value;
// days by date. Each facet's counts ignore that facet's own selection.
// Missing counts the talks with no value.
type Facets struct {
	Track      []FacetValue
	Level      []FacetValue
	Room       []FacetValue
	Day        []FacetValue
	Kind       []FacetValue
	Conference []FacetValue
	Language   []FacetValue
	Missing    map[string]int // facet name → talks without a value
}

// FacetValue is one bucket of a facet.
type FacetValue struct {
	Value string
	// Label names a value that is an id (a conference's name).
	Label    string
	Count    int
	Selected bool
}

// TalkDetail is a whole talk with its related talks.
type TalkDetail struct {
	index.Talk
	Related []Related
}

// Related is a talk similar to another one.
type Related struct {
	ID          string
	Title       string
	Score       float64
	SharedTerms []string
	Room        string
	Start       *time.Time
	End         *time.Time
	// Clash is true when both talks are scheduled at overlapping times in
	// different rooms: an attendee cannot see both.
	Clash bool
}
