package index

// Field names of the Bleve documents. The search package queries these and
// nothing else; the mapping (mapping.go) says how each is analysed.
const (
	FieldTitle    = "title"    // text (talk_en), stored, term vectors: weight it above the abstract
	FieldAbstract = "abstract" // text (talk_en), stored, term vectors
	FieldSpeakers = "speakers" // text (talk_en), stored: names and affiliations, one speaker a line

	// Unstemmed twins of title and abstract (talk_exact, a copy of the text,
	// not stored, no term vectors). Fuzzy queries behave better against
	// real words than against stems (flexatention → flexattention), and
	// their term dictionaries are the vocabulary for "did you mean".
	FieldTitleExact    = "title_exact"
	FieldAbstractExact = "abstract_exact"

	FieldTrack     = "track"      // keyword: facet and exact filter; empty values are not indexed
	FieldTrackText = "track_text" // text (talk_en) twin of track, so words of a track name match
	FieldLevel     = "level"      // keyword: facet
	FieldRoom      = "room"       // keyword: facet
	FieldKind      = "kind"       // keyword
	FieldStart     = "start"      // datetime, for sorting by time; absent when unknown
	FieldScheduled = "scheduled"  // boolean
)
