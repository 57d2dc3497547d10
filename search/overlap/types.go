package overlap

import "github.com/talksearch/talksearch/index"

// Kinds of overlap between two talks.
const (
	KindDuplicate     = "duplicate"      // the same text (merged at ingest, or identical submissions)
	KindNearDuplicate = "near-duplicate" // the same text, edited
	KindTopical       = "topical"        // different texts about the same thing
)

// Options tune Detect.
type Options struct {
	// Min is the lowest pair score reported (0..1); 0 means DefaultMin.
	Min float64
}

// Report is everything the organizers see; its JSON form is the API's and
// `talksearch overlaps --json`'s.
type Report struct {
	Pairs    []Pair    `json:"pairs"`    // best first
	Clusters []Cluster `json:"clusters"` // connected groups of pairs
	Clashes  []Clash   `json:"clashes"`  // similar talks in overlapping slots, best first
}

// Pair is two talks that overlap, and why.
type Pair struct {
	A           string   `json:"a"` // talk ids, as in `talksearch export`
	B           string   `json:"b"`
	Score       float64  `json:"score"` // 0..1
	Kind        string   `json:"kind"`
	SharedTerms []string `json:"shared_terms"`
	Passages    Passages `json:"passages"`
}

// Passages are the sentences of each abstract that carry the shared terms,
// HTML-escaped with the shared words wrapped in <mark>.
type Passages struct {
	A []string `json:"a"`
	B []string `json:"b"`
}

// Cluster is a group of talks linked by pairs.
type Cluster struct {
	IDs   []string `json:"ids"`
	Label string   `json:"label"` // the terms the cluster shares most
}

// Clash is two similar talks scheduled at overlapping times in different rooms.
type Clash struct {
	A     string  `json:"a"`
	B     string  `json:"b"`
	Score float64 `json:"score"`
}

// Detect finds the overlapping pairs, clusters and clashes among talks.
// TODO(overlaps): implemented by the organizers work (issue 5).
func Detect(talks []index.Talk, opts Options) *Report {
	return &Report{Pairs: []Pair{}, Clusters: []Cluster{}, Clashes: []Clash{}}
}
