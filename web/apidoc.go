package web

import (
	"fmt"
	"time"

	"github.com/goccy/go-json"
	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search"
	"github.com/talksearch/talksearch/search/overlap"
)

// The API's JSON documents, owned here: the engine returns plain Go values
// and web alone decides their JSON form, for GET /api/... and for the
// CLI's --json (SearchJSON, TalkJSON, OverlapsJSON), so the two cannot
// drift. Every key of the contract is always written, in this order; a
// value a talk does not have is null, never "" as a placeholder; lists are
// arrays, never null; HTML fragments (highlights, passages) hold nothing
// but escaped text and <mark>, as the pages do, so a client may insert
// them as HTML. Talks themselves are index.Talk's JSON, the export
// contract (`talksearch export`), with their related talks.

// SearchDoc is the document of GET /api/search.
type SearchDoc struct {
	Query      string    `json:"query"`
	Total      uint64    `json:"total"`
	TookMS     float64   `json:"took_ms"`
	Hits       []HitDoc  `json:"hits"`
	Facets     FacetsDoc `json:"facets"`
	Synonyms   []string  `json:"synonyms,omitempty"` // "MoE → mixture of experts"
	DidYouMean *string   `json:"did_you_mean"`
	// Corrected: the search used did_you_mean's corrections ("Showing
	// results for …"); false with a did_you_mean is only a proposal.
	Corrected bool `json:"corrected"`
	// Simplified and Note: the query had more expensive parts than one
	// search spends on; Note says what was searched plainly.
	Simplified bool   `json:"simplified,omitempty"`
	Note       string `json:"note,omitempty"`
	// Scope: the query is the name of a room or a track, which a page
	// offers as a filter; absent otherwise.
	Scope *ScopeDoc `json:"scope,omitempty"`
}

// ScopeDoc is the room or track a query names and its number of talks.
type ScopeDoc struct {
	Facet string `json:"facet"` // "room" or "track"
	Value string `json:"value"`
	Talks int    `json:"talks"`
}

// HitDoc is one talk of a SearchDoc.
type HitDoc struct {
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
	Cancelled  bool            `json:"cancelled"`
	Score      float64         `json:"score"`
	Highlights HighlightsDoc   `json:"highlights"`
	// Explanation is how the score was made, with explain=1: Bleve's BM25
	// score of the query (each clause's field, term and BM25 parts) times
	// the factor of soft coordination and the damping of breaks and
	// cancelled talks. Its value is the score.
	Explanation *ExplanationDoc `json:"explanation,omitempty"`
}

// ExplanationDoc says how a value was made from its details.
type ExplanationDoc struct {
	Value       float64          `json:"value"`
	Description string           `json:"description"`
	Details     []ExplanationDoc `json:"details,omitempty"`
}

func newExplanationDoc(x search.Explanation) ExplanationDoc {
	doc := ExplanationDoc{Value: x.Value, Description: x.Description}
	for _, d := range x.Details {
		doc.Details = append(doc.Details, newExplanationDoc(d))
	}
	return doc
}

// HighlightsDoc are the HTML fragments of a hit.
type HighlightsDoc struct {
	Title    []string `json:"title"`
	Abstract []string `json:"abstract"`
	// Description is fragments of the description, the longer text some
	// sources keep beside the abstract (empty when it repeats it).
	Description []string `json:"description"`
	// Speakers are the speakers with a matched word in their name or
	// affiliation, "Name, Affiliation", in the talk's order.
	Speakers []string `json:"speakers"`
}

// FacetsDoc are a result's facet counts; Missing counts the talks without
// a value, by facet name.
type FacetsDoc struct {
	Track      []FacetValueDoc `json:"track"`
	Level      []FacetValueDoc `json:"level"`
	Room       []FacetValueDoc `json:"room"`
	Day        []FacetValueDoc `json:"day"`
	Kind       []FacetValueDoc `json:"kind"`
	Conference []FacetValueDoc `json:"conference"`
	Language   []FacetValueDoc `json:"language"`
	Missing    map[string]int  `json:"missing"`
}

// FacetValueDoc is one bucket of a facet.
type FacetValueDoc struct {
	Value string `json:"value"`
	// Label names a value that is an id (a conference's name).
	Label    string `json:"label,omitempty"`
	Count    int    `json:"count"`
	Selected bool   `json:"selected,omitempty"`
}

// TalkDoc is the document of GET /api/talks/:id.
type TalkDoc struct {
	index.Talk
	Related []RelatedDoc `json:"related"`
}

// RelatedDoc is one related talk; Clash is true when an attendee cannot
// see both (index.Talk.Clashes).
type RelatedDoc struct {
	ID          string     `json:"id"`
	Title       string     `json:"title"`
	Score       float64    `json:"score"`
	SharedTerms []string   `json:"shared_terms"`
	Room        string     `json:"room,omitempty"`
	Start       *time.Time `json:"start,omitempty"`
	End         *time.Time `json:"end,omitempty"`
	Clash       bool       `json:"clash"`
}

// OverlapsDoc is the document of GET /api/overlaps (see overlap.Report).
type OverlapsDoc struct {
	Pairs             []PairDoc         `json:"pairs"`
	More              int               `json:"more,omitempty"`
	Clusters          []ClusterDoc      `json:"clusters"`
	Clashes           []ClashDoc        `json:"clashes"`
	MoreClashes       int               `json:"more_clashes,omitempty"`
	Merged            []MergedDoc       `json:"merged"`
	Skipped           []RowErrorDoc     `json:"skipped,omitempty"`
	Files             []FileDoc         `json:"files,omitempty"`
	Conflicts         []ConflictDoc     `json:"conflicts"`
	MoreConflicts     int               `json:"more_conflicts,omitempty"`
	Resubmissions     []ResubmissionDoc `json:"resubmissions"`
	MoreResubmissions int               `json:"more_resubmissions,omitempty"`
	Recurring         []RecurringDoc    `json:"recurring"`
	Totals            TotalsDoc         `json:"totals"`
}

// RecurringDoc is one session every edition holds (overlap.Recurring).
type RecurringDoc struct {
	Title       string   `json:"title"`
	Years       []int    `json:"years"`
	Conferences []string `json:"conferences"`
	IDs         []string `json:"ids"`
	Evidence    []string `json:"evidence"`
}

// TotalsDoc counts the report (overlap.Totals): the lists may hold fewer.
type TotalsDoc struct {
	Pairs         int `json:"pairs"`
	Clusters      int `json:"clusters"`
	Clashes       int `json:"clashes"`
	Conflicts     int `json:"conflicts"`
	Resubmissions int `json:"resubmissions"`
	Recurring     int `json:"recurring"`
	Merged        int `json:"merged"`
	Decisions     int `json:"decisions"`
	Rows          int `json:"rows"`
	Kept          int `json:"kept"`
	Repaired      int `json:"repaired"`
	MergedRows    int `json:"merged_rows"`
	Skipped       int `json:"skipped"`
}

// FileDoc counts what became of one submitted file's rows (overlap.Summary):
// rows = kept + merged + skipped.
type FileDoc struct {
	File     string `json:"file"`
	Format   string `json:"format"`
	Rows     int    `json:"rows"`
	Kept     int    `json:"kept"`
	Repaired int    `json:"repaired"`
	Merged   int    `json:"merged"`
	Skipped  int    `json:"skipped"`
	// NaiveTimes kept rows had times without a zone, read in Zone.
	NaiveTimes int    `json:"naive_times"`
	Zone       string `json:"zone"`
}

// ConflictDoc is a problem of the schedule between two talks
// (overlap.Conflict); Speaker, Track and Score belong to one kind each.
type ConflictDoc struct {
	Kind    string    `json:"kind"`
	Speaker string    `json:"speaker,omitempty"`
	Track   string    `json:"track,omitempty"`
	A       string    `json:"a"`
	B       string    `json:"b"`
	TitleA  string    `json:"title_a"`
	TitleB  string    `json:"title_b"`
	RoomA   string    `json:"room_a,omitempty"`
	RoomB   string    `json:"room_b,omitempty"`
	Start   time.Time `json:"start"`
	End     time.Time `json:"end"`
	Score   float64   `json:"score,omitempty"`
}

// ResubmissionDoc is a talk that comes back at a later conference
// (overlap.Resubmission).
type ResubmissionDoc struct {
	Earlier           string   `json:"earlier"`
	Later             string   `json:"later"`
	TitleEarlier      string   `json:"title_earlier"`
	TitleLater        string   `json:"title_later"`
	ConferenceEarlier string   `json:"conference_earlier"`
	ConferenceLater   string   `json:"conference_later"`
	YearEarlier       int      `json:"year_earlier,omitempty"`
	YearLater         int      `json:"year_later,omitempty"`
	Kind              string   `json:"kind"`
	Score             float64  `json:"score"`
	Resemblance       float64  `json:"resemblance"`
	SharedSpeakers    []string `json:"shared_speakers,omitempty"`
	Evidence          []string `json:"evidence"`
}

func newFileDocs(fs []overlap.Summary) []FileDoc {
	var docs []FileDoc
	for _, f := range fs {
		docs = append(docs, FileDoc(f))
	}
	return docs
}

func newConflictDocs(cs []overlap.Conflict) []ConflictDoc {
	docs := make([]ConflictDoc, len(cs))
	for i, c := range cs {
		docs[i] = ConflictDoc(c)
	}
	return docs
}

func newResubmissionDocs(rs []overlap.Resubmission) []ResubmissionDoc {
	docs := make([]ResubmissionDoc, len(rs))
	for i, r := range rs {
		r.Evidence = nonNil(r.Evidence)
		docs[i] = ResubmissionDoc(r)
	}
	return docs
}

// PairDoc is two overlapping talks and why (overlap.Pair).
type PairDoc struct {
	A           string      `json:"a"`
	B           string      `json:"b"`
	Score       float64     `json:"score"`
	Kind        string      `json:"kind"`
	SharedTerms []string    `json:"shared_terms"`
	Passages    PassagesDoc `json:"passages"`
	TitleA      string      `json:"title_a"`
	TitleB      string      `json:"title_b"`
	// SharedSpeakers: with similar texts, the evidence of a resubmission.
	SharedSpeakers []string   `json:"shared_speakers,omitempty"`
	SpeakersA      []string   `json:"speakers_a,omitempty"`
	SpeakersB      []string   `json:"speakers_b,omitempty"`
	RoomA          string     `json:"room_a,omitempty"`
	RoomB          string     `json:"room_b,omitempty"`
	StartA         *time.Time `json:"start_a,omitempty"`
	StartB         *time.Time `json:"start_b,omitempty"`
	ConferenceA    string     `json:"conference_a,omitempty"`
	ConferenceB    string     `json:"conference_b,omitempty"`
	YearA          int        `json:"year_a,omitempty"`
	YearB          int        `json:"year_b,omitempty"`
	Decision       string     `json:"decision,omitempty"`
	Note           string     `json:"note,omitempty"`
	Resemblance    float64    `json:"resemblance"`
}

// PassagesDoc are each talk's sentences carrying the shared terms, HTML.
type PassagesDoc struct {
	A []string `json:"a"`
	B []string `json:"b"`
}

// ClusterDoc is a group of linked talks; Conferences and Years are the
// members', in the order of IDs (year 0: unknown).
type ClusterDoc struct {
	IDs         []string `json:"ids"`
	Label       string   `json:"label"`
	Titles      []string `json:"titles"`
	Conferences []string `json:"conferences"`
	Years       []int    `json:"years"`
}

// ClashDoc is two similar talks in overlapping slots; Start and End are
// the span both share.
type ClashDoc struct {
	A      string    `json:"a"`
	B      string    `json:"b"`
	Score  float64   `json:"score"`
	TitleA string    `json:"title_a"`
	TitleB string    `json:"title_b"`
	RoomA  string    `json:"room_a"`
	RoomB  string    `json:"room_b"`
	Start  time.Time `json:"start"`
	End    time.Time `json:"end"`
}

// MergedDoc is a talk ingestion found in several dumps.
type MergedDoc struct {
	ID      string   `json:"id"`
	Title   string   `json:"title"`
	Sources []string `json:"sources"`
}

// RowErrorDoc is a row of a submissions file that was skipped, merged or
// repaired, and why.
type RowErrorDoc struct {
	File   string `json:"file,omitempty"`
	Line   int    `json:"line"`
	Action string `json:"action"`
	Reason string `json:"reason"`
}

// healthDoc is the document of /healthz; the reload keys are there when
// the server can re-index.
type healthDoc struct {
	Status         string `json:"status"`
	Generation     uint64 `json:"generation"`
	Reloads        *int   `json:"reloads,omitempty"`
	ReloadFailures *int   `json:"reload_failures,omitempty"`
	Reloading      *bool  `json:"reloading,omitempty"`
	// Sources are the seeds fetched from URLs, when there are any.
	Sources []SourceStatus `json:"sources,omitempty"`
	// Index names the on-disk index generation served (Options.Index),
	// which servers of one directory share: equal on every replica once
	// they all serve the same build.
	Index string `json:"index,omitempty"`
}

// NewSearchDoc is the API document of a search result.
func NewSearchDoc(r *search.Result) SearchDoc {
	doc := SearchDoc{
		Query: r.Query, Total: r.Total, TookMS: r.TookMS, Hits: make([]HitDoc, len(r.Hits)),
		Facets: FacetsDoc{
			Track: facetValues(r.Facets.Track), Level: facetValues(r.Facets.Level), Room: facetValues(r.Facets.Room),
			Day: facetValues(r.Facets.Day), Kind: facetValues(r.Facets.Kind),
			Conference: facetValues(r.Facets.Conference), Language: facetValues(r.Facets.Language),
			Missing: r.Facets.Missing,
		},
		Synonyms: r.Synonyms, DidYouMean: nullable(r.DidYouMean),
		Corrected: r.Corrected, Simplified: r.Simplified, Note: r.Note,
	}
	if r.Scope != nil {
		doc.Scope = &ScopeDoc{Facet: r.Scope.Facet, Value: r.Scope.Value, Talks: r.Scope.Talks}
	}
	if doc.Facets.Missing == nil {
		doc.Facets.Missing = map[string]int{}
	}
	for i := range r.Hits {
		h := &r.Hits[i]
		doc.Hits[i] = HitDoc{
			ID: h.ID, Title: h.Title, Speakers: nonNil(h.Speakers),
			Track: nullableAt(&h.Track), Level: nullableAt(&h.Level), Room: nullableAt(&h.Room),
			Start: h.Start, End: h.End, Kind: h.Kind, Scheduled: h.Scheduled, Cancelled: h.Cancelled, Score: h.Score,
			Highlights: HighlightsDoc{Title: safeFragments(h.Highlights.Title), Abstract: safeFragments(h.Highlights.Abstract),
				Description: safeFragments(h.Highlights.Description), Speakers: safeFragments(h.Highlights.Speakers)},
		}
		if h.Explanation != nil {
			x := newExplanationDoc(*h.Explanation)
			doc.Hits[i].Explanation = &x
		}
	}
	return doc
}

func facetValues(vs []search.FacetValue) []FacetValueDoc {
	out := make([]FacetValueDoc, len(vs))
	for i, v := range vs {
		out[i] = FacetValueDoc{v.Value, v.Label, v.Count, v.Selected}
	}
	return out
}

// NewTalkDoc is the API document of a talk.
func NewTalkDoc(t *search.TalkDetail) TalkDoc {
	doc := TalkDoc{Talk: t.Talk, Related: newRelatedDocs(t.Related)}
	doc.Sources = nonNil(t.Sources)
	return doc
}

// newRelatedDocs are related talks as every API document lists them.
func newRelatedDocs(rs []search.Related) []RelatedDoc {
	out := make([]RelatedDoc, len(rs))
	for i, r := range rs {
		out[i] = RelatedDoc{r.ID, r.Title, r.Score, nonNil(r.SharedTerms), r.Room, r.Start, r.End, r.Clash}
	}
	return out
}

// NewOverlapsDoc is the API document of an overlap report.
func NewOverlapsDoc(r *overlap.Report) OverlapsDoc {
	doc := OverlapsDoc{
		Pairs: make([]PairDoc, len(r.Pairs)), More: r.More, Clusters: make([]ClusterDoc, len(r.Clusters)),
		Clashes: make([]ClashDoc, len(r.Clashes)), MoreClashes: r.MoreClashes, Merged: make([]MergedDoc, len(r.Merged)),
	}
	for i, p := range r.Pairs {
		doc.Pairs[i] = newPairDoc(p)
	}
	for i, c := range r.Clusters {
		cd := ClusterDoc{IDs: nonNil(c.IDs), Label: c.Label, Titles: nonNil(c.Titles), Conferences: []string{}, Years: []int{}}
		for _, id := range c.IDs {
			in := r.Info(id)
			cd.Conferences, cd.Years = append(cd.Conferences, in.Conference), append(cd.Years, in.Year)
		}
		doc.Clusters[i] = cd
	}
	for i, c := range r.Clashes {
		doc.Clashes[i] = ClashDoc{c.A, c.B, c.Score, c.TitleA, c.TitleB, c.RoomA, c.RoomB, c.Start, c.End}
	}
	for i, m := range r.Merged {
		doc.Merged[i] = MergedDoc{m.ID, m.Title, nonNil(m.Sources)}
	}
	for _, e := range r.Skipped {
		doc.Skipped = append(doc.Skipped, RowErrorDoc{e.File, e.Line, e.Action, e.Reason})
	}
	doc.Files, doc.MoreConflicts, doc.MoreResubmissions = newFileDocs(r.Files), r.MoreConflicts, r.MoreResubmissions
	doc.Conflicts = newConflictDocs(r.Conflicts)
	doc.Resubmissions = newResubmissionDocs(r.Resubmissions)
	doc.Totals = TotalsDoc(r.Totals())
	doc.Recurring = make([]RecurringDoc, len(r.Recurring))
	for i, rc := range r.Recurring {
		doc.Recurring[i] = RecurringDoc{rc.Title, nonNil(rc.Years), nonNil(rc.Conferences), nonNil(rc.IDs), nonNil(rc.Evidence)}
	}
	return doc
}

// TalkOverlapsDoc is the document of GET /api/overlaps/talks/:id (see
// overlap.TalkOverlaps).
type TalkOverlapsDoc struct {
	ID         string            `json:"id"`
	Title      string            `json:"title"`
	Conference string            `json:"conference,omitempty"`
	Track      string            `json:"track,omitempty"`
	Similar    []PairDoc         `json:"similar"`
	Versions   []ResubmissionDoc `json:"versions"`
	Conflicts  []ConflictDoc     `json:"conflicts"`
}

// NewTalkOverlapsDoc is the API document of one talk's overlaps.
func NewTalkOverlapsDoc(v *overlap.TalkOverlaps) TalkOverlapsDoc {
	doc := TalkOverlapsDoc{ID: v.ID, Title: v.Title, Conference: v.Conference, Track: v.Track,
		Similar: make([]PairDoc, len(v.Similar)), Versions: newResubmissionDocs(v.Versions), Conflicts: newConflictDocs(v.Conflicts)}
	for i, p := range v.Similar {
		doc.Similar[i] = newPairDoc(p)
	}
	return doc
}

func newPairDoc(p overlap.Pair) PairDoc {
	return PairDoc{
		A: p.A, B: p.B, Score: p.Score, Kind: p.Kind, SharedTerms: nonNil(p.SharedTerms),
		Passages: PassagesDoc{A: safeFragments(p.Passages.A), B: safeFragments(p.Passages.B)},
		TitleA:   p.TitleA, TitleB: p.TitleB,
		SharedSpeakers: p.SharedSpeakers, SpeakersA: p.SpeakersA, SpeakersB: p.SpeakersB,
		RoomA: p.RoomA, RoomB: p.RoomB, StartA: p.StartA, StartB: p.StartB,
		ConferenceA: p.ConferenceA, ConferenceB: p.ConferenceB, YearA: p.YearA, YearB: p.YearB, Decision: p.Decision, Note: p.Note, Resemblance: p.Resemblance,
	}
}

// SearchJSON, TalkJSON and OverlapsJSON are the API's JSON of each
// document, compact as the API serves it.
func SearchJSON(r *search.Result) ([]byte, error)    { return encodeJSON(NewSearchDoc(r)) }
func TalkJSON(t *search.TalkDetail) ([]byte, error)  { return encodeJSON(NewTalkDoc(t)) }
func OverlapsJSON(r *overlap.Report) ([]byte, error) { return encodeJSON(NewOverlapsDoc(r)) }

// encodeJSON is v as API JSON: encoding/json's compact form, which escapes
// <, > and & in strings, so a highlight's <mark> reaches a client as
// \u003cmark\u003e and the JSON stays safe to embed in a page. It is
// written by goccy/go-json, a drop-in for encoding/json that writes the
// same bytes: with every query new, encoding/json's reflection was a
// seventh of a served search, and goccy/go-json takes about half of it.
func encodeJSON(v any) ([]byte, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode answer: %w", err)
	}
	return body, nil
}

// nullableAt is nullable of *p, pointing at *p itself rather than at a
// copy: a page of hits has three such fields each. The document only
// reads it.
func nullableAt(p *string) *string {
	if *p == "" {
		return nil
	}
	return p
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// safeFragments is fs with each fragment made safe (safeHighlight): fs
// itself, read only, when every fragment already is, as the engine's are,
// so that an answer's dozens of highlight lists are not copied; never nil.
func safeFragments(fs []string) []string {
	for i, f := range fs {
		if canonicalHighlight(f) {
			continue
		}
		out := make([]string, len(fs))
		copy(out, fs[:i])
		for j := i; j < len(fs); j++ {
			out[j] = string(safeHighlight(fs[j]))
		}
		return out
	}
	if fs == nil {
		return []string{}
	}
	return fs
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
