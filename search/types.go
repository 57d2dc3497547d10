package search

import (
	"encoding/json"
	"time"

	"github.com/talksearch/talksearch/index"
)

// Sort orders of a search.
const (
	SortRelevance = "relevance"
	SortTime      = "time"
)

// Request is one search as a user (the page, the API, the CLI) asks it.
// Values of one facet combine with OR, different facets with AND.
type Request struct {
	Query  string
	Tracks []string
	Levels []string
	Rooms  []string
	Sort   string // SortRelevance (default) or SortTime
	Limit  int    // 0 means DefaultLimit
	Offset int
}

// Result is the answer to a Request; its JSON form is the API's.
type Result struct {
	Query      string  `json:"query"`
	Total      uint64  `json:"total"`
	TookMS     float64 `json:"took_ms"`
	Hits       []Hit   `json:"hits"`
	Facets     Facets  `json:"facets"`
	DidYouMean string  `json:"-"` // JSON: "did_you_mean", null when empty (MarshalJSON)
	// Corrected says the search already used DidYouMean's corrections
	// (a page says "Showing results for …"); false with a DidYouMean is
	// a proposal the search did not follow ("Did you mean …?").
	Corrected bool `json:"corrected"`
	// Synonyms are the expansions the query used, as "MoE → mixture of
	// experts", so a page can say why a talk matched.
	Synonyms []string `json:"synonyms,omitempty"`
	// Simplified says the query had more expensive parts (typo
	// corrections, phrases, compound words, words) than one search may
	// spend on (query.go, the cost model); the rest were searched as plain
	// words or not at all, as Note says.
	Simplified bool   `json:"simplified,omitempty"`
	Note       string `json:"note,omitempty"`
}

// Hit is one talk of a Result.
type Hit struct {
	ID         string          `json:"id"`
	Title      string          `json:"title"`
	Speakers   []index.Speaker `json:"speakers"`
	Track      string          `json:"-"` // JSON: null when empty (MarshalJSON)
	Level      string          `json:"-"`
	Room       string          `json:"-"`
	Start      *time.Time      `json:"start"`
	End        *time.Time      `json:"end"`
	Kind       index.Kind      `json:"kind"`
	Scheduled  bool            `json:"scheduled"`
	Score      float64         `json:"score"`
	Highlights Highlights      `json:"highlights"`
}

// Highlights are HTML fragments: data-set text is escaped and the matched
// words are wrapped in <mark>, the only markup they may contain.
type Highlights struct {
	Title    []string `json:"title"`
	Abstract []string `json:"abstract"`
	// Speakers are the speakers with a matched word in their name or
	// affiliation, each as "Name, Affiliation", in the talk's order.
	Speakers []string `json:"speakers"`
}

// Facets counts the talks of a result per track, level and room, each
// ordered by count (descending), then value. Each facet's counts ignore
// that facet's own selection. Missing counts the talks with no value.
type Facets struct {
	Track   []FacetValue   `json:"track"`
	Level   []FacetValue   `json:"level"`
	Room    []FacetValue   `json:"room"`
	Missing map[string]int `json:"missing"` // "track", "level", "room" → talks without a value
}

// FacetValue is one bucket of a facet.
type FacetValue struct {
	Value    string `json:"value"`
	Count    int    `json:"count"`
	Selected bool   `json:"selected,omitempty"`
}

// TalkDetail is a whole talk with its related talks.
type TalkDetail struct {
	index.Talk
	Related []Related `json:"related"`
}

// Related is a talk similar to another one.
type Related struct {
	ID          string     `json:"id"`
	Title       string     `json:"title"`
	Score       float64    `json:"score"`
	SharedTerms []string   `json:"shared_terms"`
	Room        string     `json:"room,omitempty"`
	Start       *time.Time `json:"start,omitempty"`
	End         *time.Time `json:"end,omitempty"`
	// Clash is true when both talks are scheduled at overlapping times in
	// different rooms: an attendee cannot see both.
	Clash bool `json:"clash"`
}

// MarshalJSON writes every key of the API contract, with null for a value
// the talk does not have (never "" as a placeholder). The hits are encoded
// here as hitJSON, not through Hit.MarshalJSON: encoding/json re-scans what
// every MarshalJSON returns, and doing that per hit and again for the whole
// result made JSON most of the cost of a cached search.
func (r Result) MarshalJSON() ([]byte, error) {
	var hits []hitJSON
	if r.Hits != nil {
		hits = make([]hitJSON, len(r.Hits))
		for i, h := range r.Hits {
			hits[i] = h.json()
		}
	}
	return json.Marshal(resultJSON{r.Query, r.Total, r.TookMS, hits, r.Facets, r.Synonyms, nullable(r.DidYouMean), r.Corrected, r.Simplified, r.Note})
}

// resultJSON is Result as the API writes it, keys in the contract's order.
type resultJSON struct {
	Query      string    `json:"query"`
	Total      uint64    `json:"total"`
	TookMS     float64   `json:"took_ms"`
	Hits       []hitJSON `json:"hits"`
	Facets     Facets    `json:"facets"`
	Synonyms   []string  `json:"synonyms,omitempty"`
	DidYouMean *string   `json:"did_you_mean"`
	Corrected  bool      `json:"corrected"`
	Simplified bool      `json:"simplified,omitempty"`
	Note       string    `json:"note,omitempty"`
}

// MarshalJSON writes track, level and room as null when the talk has none,
// keeping the keys in the contract's order.
func (h Hit) MarshalJSON() ([]byte, error) { return json.Marshal(h.json()) }

// hitJSON is Hit as the API writes it.
type hitJSON struct {
	ID         string          `json:"id"`
	Title      string          `json:"title"`
	Speakers   []index.Speaker `json:"speakers"`
	Track      *string         `json:"track"`
	Level      *string         `json:"level"`
	Room       *string         `json:"room"`
	Start      *time.Time      `json:"start"`
	End        *time.Time      `json:"end"`
	Kind       index.Kind      `json:"kind"`
	Scheduled  bool            `json:"scheduled"`
	Score      float64         `json:"score"`
	Highlights Highlights      `json:"highlights"`
}

func (h Hit) json() hitJSON {
	return hitJSON{h.ID, h.Title, h.Speakers, nullable(h.Track), nullable(h.Level), nullable(h.Room),
		h.Start, h.End, h.Kind, h.Scheduled, h.Score, h.Highlights}
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
