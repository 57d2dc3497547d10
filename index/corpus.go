package index

import (
	"errors"
	"io/fs"
)

// Corpus is the clean, deduplicated result of ingesting a seeds directory.
type Corpus struct {
	Talks  []Talk
	Report Report
}

// Report says what ingestion read, merged and warned about.
type Report struct {
	Files    int       // seed files read
	Blocks   int       // session blocks of the schedule dump
	Merged   int       // duplicate abstracts merged into an existing talk
	Warnings []Warning // problems found; ingestion went on
}

// Warning is a problem in one seed file, at one line (1-based; 0 = whole file).
type Warning struct {
	File string
	Line int
	Msg  string
}

// Load ingests every *.txt seed of fsys: parse, then dedup.
// TODO(ingest): implemented by the ingest work (issue 2).
func Load(fsys fs.FS) (*Corpus, error) {
	return nil, errors.New("index.Load: not implemented yet")
}
