package index

// Field names of the Bleve documents (mapping.go says how each is
// analysed). The search package queries the text fields and kind, and
// nothing else: facets, the track: filter, filters by level and room, and
// the order by time are all computed in Go from the talks a snapshot holds
// (search/facets.go, search/results.go), which costs less than Bleve's
// facet requests and sorts. A field no query reads is not indexed.
const (
	// Text fields are not stored: results and highlights use the Talk
	// text; term vectors give match locations.
	FieldTitle    = "title"    // text (talk_en), term vectors: weighed above the abstract
	FieldAbstract = "abstract" // text (talk_en), term vectors
	// FieldDescription is the longer text some sources keep beside the
	// abstract (FOSDEM's <description>), in a field of its own so that it
	// weighs less than the abstract (ranking.Fields).
	FieldDescription = "description" // text (talk_en), term vectors
	FieldSpeakers    = "speakers"    // text (talk_en), term vectors: names and affiliations, one speaker a line

	FieldTrackText = "track_text" // text (talk_en) copy of the track, so words of a track name match
	FieldRoomText  = "room_text"  // text (talk_en) copy of the room, so "Master Stage" finds that room's talks
	FieldKind      = "kind"       // keyword: related talks leave breaks out
)
