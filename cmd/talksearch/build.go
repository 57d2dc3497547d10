package main

import (
	"errors"
	"fmt"

	"github.com/blevesearch/bleve/v2"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/ingest"
	"github.com/talksearch/talksearch/search"
)

// buildIndex is talksearch index --index DIR: the index of the seeds in
// dir, reused when it is theirs, else built beside the one there, with
// everything a server derives from it kept in its sidecar (the talks, the
// engine's vocabulary and thesaurus) before it is published, so that
// serve --read-only finds each generation whole. It prints the summary of
// the seeds, then one line naming the index.
func (g *globals) buildIndex(dir string, allowDrop bool) error {
	log, err := g.terminalLog()
	if err != nil {
		return err
	}
	lock, err := index.Lock(dir)
	if err != nil {
		if errors.Is(err, index.ErrLocked) {
			err = fmt.Errorf("%w (a serve without --read-only, or another index, holds it)", err)
		}
		return fmt.Errorf("--index %s: %w", dir, err)
	}
	defer lock.Unlock()
	c, src, save, err := g.loadServeCorpus(dir, log)
	if err != nil {
		return err
	}
	if err := printSummary(g.stdout, c); err != nil {
		return err
	}
	if len(c.Talks) == 0 {
		why := noTalksError(c.Report)
		if why == nil {
			why = errors.New("the seeds hold none (see the warnings)")
		}
		return fmt.Errorf("no talks to index: %w", why)
	}
	if !src.Kept {
		if err := checkPersistedDrop(dir, c, allowDrop, log); err != nil {
			return err
		}
	}
	if len(g.seedPaths) == 0 {
		// The embedded seeds are parsed at every serve start, but a
		// read-only server has none: their talks are kept too, under
		// no key.
		save = func(sc *index.Sidecar) error { return sc.Save(keptCorpusName, "", ingest.Keep(c)) }
	}
	var st *index.Staged
	e, err := search.NewWithOptions(c.Talks, search.Options{Index: func(talks []index.Talk) (bleve.Index, error) {
		s, err := index.Stage(g.ctx, dir, talks, buildProgress(g.stderr, log))
		if err != nil {
			return nil, fmt.Errorf("--index %s: %w", dir, err)
		}
		st = s
		return s.Index, nil
	}})
	if err != nil {
		if st != nil {
			st.Abandon()
		}
		return fmt.Errorf("index talks: %w", err)
	}
	defer e.Close()
	for _, p := range e.Kept().Problems {
		log.Warn().Str("problem", p).Msg("a kept derivation was not used or not saved")
	}
	if err := save(index.SidecarOf(st.Index)); err != nil {
		st.Abandon()
		return fmt.Errorf("--index %s: keep the talks with the index: %w", dir, err)
	}
	if err := st.Publish(); err != nil {
		return fmt.Errorf("--index %s: %w", dir, err)
	}
	rep := st.Report
	if rep.Cleanup != nil {
		log.Warn().Err(rep.Cleanup).Msg("could not remove an old index directory")
	}
	how := "reused"
	if !rep.Reused {
		how = "built (" + rep.Reason + ")"
	}
	fmt.Fprintf(g.stdout, "\nindex: %s, %d talks, %s in %s\n", rep.Path, rep.Docs, how, rep.Took.Round(1e6))
	return noTalksError(c.Report)
}
