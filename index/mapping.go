package index

import (
	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/standard"
	"github.com/blevesearch/bleve/v2/mapping"
)

// MappingVersion changes whenever the mapping or an analyzer changes, so a
// persisted index built with another one is rebuilt rather than reused.
const MappingVersion = 1

// NewMapping returns the index mapping of talk documents.
// TODO(index): custom English analyzer with snowball (issue 3).
func NewMapping() mapping.IndexMapping {
	text := func() *mapping.FieldMapping {
		f := bleve.NewTextFieldMapping()
		f.Analyzer = standard.Name
		f.IncludeInAll = false
		return f
	}
	kw := func() *mapping.FieldMapping {
		f := bleve.NewKeywordFieldMapping()
		f.Analyzer = keyword.Name
		f.IncludeInAll = false
		return f
	}
	doc := bleve.NewDocumentStaticMapping()
	doc.AddFieldMappingsAt(FieldTitle, text())
	doc.AddFieldMappingsAt(FieldAbstract, text())
	doc.AddFieldMappingsAt(FieldSpeakers, text())
	doc.AddFieldMappingsAt(FieldTrack, kw())
	doc.AddFieldMappingsAt(FieldLevel, kw())
	doc.AddFieldMappingsAt(FieldRoom, kw())
	doc.AddFieldMappingsAt(FieldKind, kw())
	start := bleve.NewDateTimeFieldMapping()
	start.IncludeInAll = false
	doc.AddFieldMappingsAt(FieldStart, start)
	sched := bleve.NewBooleanFieldMapping()
	sched.IncludeInAll = false
	doc.AddFieldMappingsAt(FieldScheduled, sched)

	m := bleve.NewIndexMapping()
	m.DefaultMapping = doc
	m.DefaultAnalyzer = standard.Name
	return m
}
