package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/talksearch/talksearch/index/fetch"
	"github.com/talksearch/talksearch/index/ingest"
	"github.com/talksearch/talksearch/web"
)

// seedSpec is one --seeds value: a path on disk or a URL, with its own
// zone (PATH#ZONE) or none.
type seedSpec struct {
	arg  string
	path string         // on disk, or the URL as reported
	zone *time.Location // nil: --time-zone
	// For a URL: where it is fetched from, and the new copy of the last
	// fetch, not yet accepted (a reload accepts or refuses it).
	remote  *fetch.Source
	pending fetch.Result
}

// parseSeeds reads --time-zone and every --seeds value. A URL is fetched
// from http or https only; PATH#ZONE gives one source its zone. Every
// error is a usage error, naming the value.
func (g *globals) parseSeeds() error {
	loc, err := ingest.ParseZone(g.timeZone)
	if err != nil {
		return fmt.Errorf("--time-zone: %w", err)
	}
	g.zone = loc
	switch o := g.fetch; {
	case o.MaxBytes <= 0:
		return fmt.Errorf("--fetch-max-bytes %d: need 1 or more", o.MaxBytes)
	case o.ConnectTimeout <= 0:
		return fmt.Errorf("--fetch-connect-timeout %s: need more than 0", o.ConnectTimeout)
	case o.Timeout <= 0:
		return fmt.Errorf("--fetch-timeout %s: need more than 0", o.Timeout)
	}
	var client *fetch.Client
	g.seeds = nil
	for _, arg := range g.seedPaths {
		s := &seedSpec{arg: arg, path: arg}
		if i := strings.LastIndexByte(arg, '#'); i >= 0 && (fetch.IsURL(arg) || !exists(arg)) {
			// A file whose name holds a '#' is read as named.
			s.path = arg[:i]
			name := arg[i+1:]
			if name == "" {
				return fmt.Errorf("--seeds %q: no time zone after '#'", arg)
			}
			if s.zone, err = ingest.ParseZone(name); err != nil {
				return fmt.Errorf("--seeds %q: %w", arg, err)
			}
		}
		if fetch.IsURL(s.path) {
			if client == nil {
				client = fetch.NewClient(g.fetch)
			}
			if s.remote, err = client.Source(s.path); err != nil {
				return fmt.Errorf("--seeds %q: %w", arg, err)
			}
			s.path = s.remote.Name()
		}
		g.seeds = append(g.seeds, s)
	}
	return nil
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// remoteSeeds are the --seeds given as URLs.
func (g *globals) remoteSeeds() []*seedSpec {
	var out []*seedSpec
	for _, s := range g.seeds {
		if s.remote != nil {
			out = append(out, s)
		}
	}
	return out
}

// fetchedSources fetches every URL once and returns the sources to read:
// what a command that reads the seeds once, or serve at its start, reads.
// A new copy that cannot stand alone is refused (fetchAll) and the source
// is a whole-file warning.
//
// A signal (g.ctx) ends the fetches, each also bounded by --fetch-timeout.
func (g *globals) fetchedSources() []ingest.Source {
	g.fetchAll(g.ctx, true, nil)
	return g.sources()
}

// fetchAll fetches every URL. A new copy is checked alone, by the rules of
// a reload: a copy that yields no talk, or that ingestion cannot read as a
// whole (a cut or broken download), is refused at once and the last good
// copy stays. The others are accepted now (accept) or kept pending for a
// reload to accept or refuse (settle). report, when set, hears of each
// failure. It returns how many new copies are pending or accepted.
func (g *globals) fetchAll(ctx context.Context, accept bool, report func(url string, err error)) int {
	changed := 0
	for _, s := range g.remoteSeeds() {
		r, err := s.remote.Fetch(ctx)
		if err == nil && r.Changed {
			err = g.standsAlone(s, r.Data)
			if err != nil {
				s.remote.Refuse(r, err)
			}
		}
		switch {
		case err != nil:
			if report != nil {
				report(s.path, err)
			}
		case !r.Changed:
		case accept:
			s.remote.Accept(r)
			changed++
		default:
			s.pending = r
			changed++
		}
	}
	return changed
}

// standsAlone is nil when data, the new copy of s, is a file a reload
// could take: ingestion reads it as a whole and finds talks in it.
func (g *globals) standsAlone(s *seedSpec, data []byte) error {
	c, err := ingest.LoadSources([]ingest.Source{{Path: s.path, Fetched: true, Data: data, Zone: s.zone}}, g.ingestOptions())
	if err != nil {
		return err
	}
	for _, w := range c.Report.Warnings {
		if w.Unread() {
			return errors.New(w.Msg)
		}
	}
	if len(c.Talks) == 0 {
		return errors.New("no talks in the new copy")
	}
	return nil
}

// sources are the --seeds to ingest: the paths, and for each URL its
// pending copy, else the copy last accepted, else the reason there is none.
func (g *globals) sources() []ingest.Source {
	srcs := make([]ingest.Source, len(g.seeds))
	for i, s := range g.seeds {
		srcs[i] = ingest.Source{Path: s.path, Zone: s.zone}
		if s.remote == nil {
			continue
		}
		srcs[i].Fetched = true
		if s.pending.Changed {
			srcs[i].Data = s.pending.Data
			continue
		}
		data, ok := s.remote.Copy()
		if ok {
			srcs[i].Data = data
			continue
		}
		why := s.remote.Status().LastError
		if why == "" {
			why = "not fetched yet"
		}
		srcs[i].Err = errors.New(why)
	}
	return srcs
}

// settle accepts the pending copies, once the corpus read with them
// serves, or refuses them with why: the last good copies stay.
func (g *globals) settle(why error) {
	for _, s := range g.remoteSeeds() {
		if !s.pending.Changed {
			continue
		}
		if why == nil {
			s.remote.Accept(s.pending)
		} else {
			s.remote.Refuse(s.pending, why)
		}
		s.pending = fetch.Result{}
	}
}

// sourcesStatus is web.Options.SourcesStatus: each URL's fetches; nil
// without URLs, so that /healthz lists no sources.
func (g *globals) sourcesStatus() func() []web.SourceStatus {
	if len(g.remoteSeeds()) == 0 {
		return nil
	}
	return g.statusOfSources
}

func (g *globals) statusOfSources() []web.SourceStatus {
	var out []web.SourceStatus
	for _, s := range g.remoteSeeds() {
		st := s.remote.Status()
		out = append(out, web.SourceStatus{
			URL: st.URL, LastAttempt: timeOrNil(st.LastAttempt), LastSuccess: timeOrNil(st.LastSuccess),
			LastChange: timeOrNil(st.LastChange), LastError: st.LastError, LastErrorAt: timeOrNil(st.LastErrorAt),
			ETag: st.ETag, LastModified: st.LastModified, Bytes: st.Bytes, HasCopy: st.HasCopy,
			Fetches: st.Fetches, NotModified: st.NotModified, Changes: st.Changes, Failures: st.Failures,
		})
	}
	return out
}

func timeOrNil(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	t = t.UTC()
	return &t
}
