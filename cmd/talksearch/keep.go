package main

import (
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/rs/zerolog"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/ingest"
)

// keptCorpusName is the sidecar (index.Sidecar) of an --index directory's
// index that holds the talks it was built from, keyed by the seed files'
// hash (ingest.Sources.Key).
const keptCorpusName = "corpus"

// corpusSource says where serve's corpus came from, for its log line and
// the tests.
type corpusSource struct {
	Kept   bool   // read from the index's sidecar, no seed file parsed
	Reason string // why not, when it was kept for other seeds or another build
}

// loadServeCorpus is loadCorpusLogged for serve. With --index DIR and
// --seeds files, a restart whose seed files are byte for byte those the
// index was built from (and whose program is the same build) reads the
// corpus kept beside the index rather than parsing them: only their hash
// is computed. Any change, a damaged sidecar, or no index yet: a full
// ingest, and save (to call once the index is open, with its sidecar or
// nil for the one DIR/current names) keeps its corpus for the next start,
// logging why it could not. Warnings are logged the same either way.
func (g *globals) loadServeCorpus(dir string, log zerolog.Logger) (c *ingest.Corpus, src corpusSource, save func(*index.Sidecar) error, err error) {
	save = func(*index.Sidecar) error { return nil }
	if dir == "" || len(g.seedPaths) == 0 {
		// In memory nothing outlives the process; the embedded seeds
		// are a few files, parsed faster than a sidecar is checked.
		c, err = g.loadCorpusLogged(log)
		return c, src, save, err
	}
	opt := g.ingestOptions()
	srcs := g.fetchedSources()
	key, err := ingest.KeySources(srcs, opt)
	if err != nil {
		return nil, src, save, fmt.Errorf("load seeds: %w", err)
	}
	c, err = readKeptCorpus(dir, key)
	switch {
	case err == nil:
		src.Kept = true
	case errors.Is(err, fs.ErrNotExist):
		// First start, or an index built before corpora were kept.
	case errors.Is(err, index.ErrSidecarStale):
		src.Reason = err.Error() // changed seeds, zone or program: no fault
	default:
		log.Warn().Err(err).Str("path", dir).Msg("kept corpus unusable: ingesting the seeds")
	}
	if !src.Kept {
		if c, key, err = ingest.LoadSourcesKeyed(srcs, opt); err != nil {
			return nil, src, save, fmt.Errorf("load seeds: %w", err)
		}
		save = func(sc *index.Sidecar) error {
			began := time.Now()
			var err error
			if sc == nil {
				sc, err = index.CurrentSidecar(dir)
			}
			if err == nil {
				err = sc.Save(keptCorpusName, key, ingest.Keep(c))
			}
			if err != nil {
				// The next start ingests again: slower, not wrong.
				log.Warn().Err(err).Str("path", dir).Msg("could not keep the corpus with the index")
				return err
			}
			log.Debug().Dur("took", time.Since(began)).Msg("corpus kept with the index")
			return nil
		}
	}
	for _, w := range c.Report.Warnings {
		log.Warn().Str("file", w.File).Int("line", w.Line).Msg(w.Msg)
	}
	return c, src, save, nil
}

// readKeptCorpus reads the corpus kept with the index dir serves, if its
// key is key.
func readKeptCorpus(dir, key string) (*ingest.Corpus, error) {
	sc, err := index.CurrentSidecar(dir)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", fs.ErrNotExist, err)
	}
	var k ingest.KeptCorpus
	if err := sc.Load(keptCorpusName, key, &k); err != nil {
		return nil, err
	}
	return k.Restore()
}
