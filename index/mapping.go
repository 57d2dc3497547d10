package index

import (
	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/mapping"
	bleveindex "github.com/blevesearch/bleve_index_api"
	"github.com/talksearch/talksearch/index/analysis"
)

// MappingVersion changes whenever the mapping or an analyzer changes, so a
// persisted index built with another one is rebuilt rather than reused.
//
// 5: track, track_text, level, room, start and scheduled are no longer
// indexed (no query read them; see fields.go).
// 6: track_text and room_text are indexed again, as text with term
// vectors: queries match track and room names (search's soft
// coordination counts them).
// 7: keyword fields keep no doc values and nothing is stored; a build of
// more than one batch is one merged segment.
// 8: description, the text some sources keep beside the abstract, is
// indexed in a field of its own.
const MappingVersion = 8

// ScoringModel is the relevance model of the index: BM25, whose length
// normalisation saturates keyword stuffing in long abstracts better than
// Bleve's default tf-idf. Switching back is this one line (and a
// MappingVersion bump): bleveindex.TFIDFScoring.
const ScoringModel = bleveindex.BM25Scoring

// NewMapping returns the index mapping of talk documents: a static document
// mapping (fields not listed here are never indexed), the talk analyzer on
// text, the keyword analyzer on kind.
func NewMapping() mapping.IndexMapping {
	// text is a searchable, highlightable field: term vectors give the hit
	// locations the highlighter marks. Not stored: the search package
	// highlights the talk text it holds, and storing the text was two
	// thirds of the index's memory. No doc values: nothing sorts on it.
	text := func(analyzer string) *mapping.FieldMapping {
		f := bleve.NewTextFieldMapping()
		f.Analyzer = analyzer
		f.IncludeInAll = false
		f.DocValues = false
		f.Store = false
		return f
	}
	// twin indexes a copy of another field's text (see newDocument), for
	// matching; its term vectors let a search count the query words a
	// talk matches (search's soft coordination).
	twin := func(analyzer string) *mapping.FieldMapping {
		f := text(analyzer)
		f.Store = false
		return f
	}
	// Keyword, time and boolean fields are for matching only: neither
	// stored nor kept as doc values. The search package holds every talk
	// and counts facets, sorts by time and shows values from it, so Bleve's
	// copies were dead weight in every segment (and in the build).
	kw := func() *mapping.FieldMapping {
		f := bleve.NewKeywordFieldMapping()
		f.Analyzer = keyword.Name
		f.IncludeInAll = false
		f.Store = false
		f.DocValues = false
		return f
	}
	doc := bleve.NewDocumentStaticMapping()
	doc.AddFieldMappingsAt(FieldTitle, text(analysis.AnalyzerName))
	doc.AddFieldMappingsAt(FieldAbstract, text(analysis.AnalyzerName))
	doc.AddFieldMappingsAt(FieldDescription, text(analysis.AnalyzerName))
	doc.AddFieldMappingsAt(FieldSpeakers, text(analysis.AnalyzerName))
	doc.AddFieldMappingsAt(FieldTrackText, twin(analysis.AnalyzerName))
	doc.AddFieldMappingsAt(FieldRoomText, twin(analysis.AnalyzerName))
	doc.AddFieldMappingsAt(FieldKind, kw())
	// No composite "_all" field: every query names its fields, and building
	// _all cost a tenth of the indexing time.
	doc.AddSubDocumentMapping("_all", bleve.NewDocumentDisabledMapping())

	m := bleve.NewIndexMapping()
	m.DefaultMapping = doc
	m.DefaultAnalyzer = analysis.AnalyzerName
	m.StoreDynamic = false
	m.IndexDynamic = false
	m.DocValuesDynamic = false
	m.ScoringModel = ScoringModel
	return m
}
