package index

// Field names of the Bleve documents. The search package queries these and
// nothing else; the mapping (mapping.go) says how each is analysed.
const (
	// Text fields are not stored: results and highlights use the Talk
	// text (see mapping.go); term vectors give match locations.
	FieldTitle    = "title"    // text (talk_en), term vectors: weight it above the abstract
	FieldAbstract = "abstract" // text (talk_en), term vectors
	FieldSpeakers = "speakers" // text (talk_en), term vectors: names and affiliations, one speaker a line

	FieldTrack     = "track"      // keyword: facet and exact filter; empty values are not indexed
	FieldTrackText = "track_text" // text (talk_en) twin of track, so words of a track name match
	FieldLevel     = "level"      // keyword: facet
	FieldRoom      = "room"       // keyword: facet
	FieldRoomText  = "room_text"  // text (talk_en) twin of room, so "Master Stage" finds that room's talks
	FieldKind      = "kind"       // keyword
	FieldStart     = "start"      // datetime, for sorting by time; absent when unknown
	FieldScheduled = "scheduled"  // boolean
)
