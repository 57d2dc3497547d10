package index

// Field names of the Bleve documents. The search package queries these and
// nothing else; the mapping (mapping.go) says how each is analysed.
const (
	FieldTitle     = "title"     // text, weighted above the abstract
	FieldAbstract  = "abstract"  // text
	FieldSpeakers  = "speakers"  // text: names and affiliations
	FieldTrack     = "track"     // keyword: facet, also searchable
	FieldLevel     = "level"     // keyword: facet
	FieldRoom      = "room"      // keyword: facet
	FieldKind      = "kind"      // keyword
	FieldStart     = "start"     // datetime, for sorting by time
	FieldScheduled = "scheduled" // boolean
)
