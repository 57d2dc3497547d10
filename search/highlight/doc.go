// Package highlight marks the matched words of a search hit in a talk's
// title, abstract and speakers, as HTML fragments.
//
// It makes the fragments Bleve's simple highlighter makes: its simple
// fragmenter's windows around the matched words (fragment.go), each scored
// by the distinct terms it holds, the best ones that do not overlap, marked
// as its html formatter marks them (everything escaped but the <mark>
// added). It reads the matched words from the hit as they come and the
// text from the talk in memory (the text that was indexed), where Bleve's
// wants a map of maps of the words, a document of the fields and a
// TermLocation allocated per word. The title gets one fragment of the whole
// title and the abstract two, where a Bleve search request gives one
// fragment size per field. The tests hold the two to the same fragments.
package highlight
