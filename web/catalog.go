package web

import (
	"crypto/sha1"
	"encoding/hex"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/ingest"
)

// catalog is every talk of one generation, indexed for the attendee views
// (schedule, now and next, agendas, calendars, speakers), which look talks
// up by id, day and speaker rather than search them. It is built once per
// generation from Searcher.Listing and shared read-only: its talks are the
// engine's, without their abstracts and descriptions (withTexts reads them
// for the pages that show them), so a large corpus is held once.
type catalog struct {
	gen   uint64
	talks []*index.Talk // schedule order
	byID  map[string]*index.Talk
	// days are the dates with talks, in order, in each talk's own zone.
	days     []string
	speakers map[string]*speakerEntry // slug → speaker
	// conferences are the catalog's conferences by first start
	// (conferencesOf); siteMulti marks a scope's catalog of a site that
	// holds several (multi).
	conferences []*conference
	siteMulti   bool
	// local reads a talk's times in its own zone (server.local).
	local func(*index.Talk, time.Time) time.Time
	// scopes are the catalogs of single conferences made so far (scope).
	scopesMu sync.Mutex
	scopes   map[string]*catalog
}

// speakerEntry is one person of the speaker pages: the speakers of every
// talk whose names have the same slug are taken to be one person, across
// conferences (the sources share no person ids).
type speakerEntry struct {
	Slug         string
	Name         string
	Affiliations []string
	Talks        []*index.Talk // schedule order
}

// catalogNow returns the catalog of the generation being served.
func (s *server) catalogNow() *catalog {
	gen := s.s.Generation()
	if c := s.catalog.Load(); c != nil && c.gen == gen {
		return c
	}
	s.catalogMu.Lock()
	defer s.catalogMu.Unlock()
	if c := s.catalog.Load(); c != nil && c.gen == gen {
		return c
	}
	c := s.next.Load()
	if c == nil || c.gen != gen {
		c = newCatalog(gen, pointers(s.s.Listing()), s.local)
	}
	s.catalog.Store(c)
	s.next.CompareAndSwap(c, nil)
	return c
}

// pointers are the talks of a listing, which a catalog and its scopes
// share.
func pointers(talks []index.Talk) []*index.Talk {
	out := make([]*index.Talk, len(talks))
	for i := range talks {
		out[i] = &talks[i]
	}
	return out
}

func newCatalog(gen uint64, talks []*index.Talk, local func(*index.Talk, time.Time) time.Time) *catalog {
	c := &catalog{gen: gen, talks: talks, byID: make(map[string]*index.Talk, len(talks)), speakers: map[string]*speakerEntry{},
		conferences: conferencesOf(talks, local), local: local}
	days := map[string]bool{}
	for _, t := range talks {
		c.byID[t.ID] = t
		if d := t.Day(); d != "" && !days[d] {
			days[d] = true
			c.days = append(c.days, d)
		}
		for _, sp := range t.Speakers {
			slug := speakerSlug(sp.Name)
			e, ok := c.speakers[slug]
			if !ok {
				e = &speakerEntry{Slug: slug, Name: sp.Name}
				c.speakers[slug] = e
			}
			if sp.Affiliation != "" && !containsFold(e.Affiliations, sp.Affiliation) {
				e.Affiliations = append(e.Affiliations, sp.Affiliation)
			}
			if len(e.Talks) == 0 || e.Talks[len(e.Talks)-1] != t {
				e.Talks = append(e.Talks, t)
			}
		}
	}
	sort.Strings(c.days)
	return c
}

// withTexts are copies of talks of the catalog with their abstracts and
// descriptions, which the catalog does not hold, for the files that carry
// them (calendars, the frab schedule).
func (s *server) withTexts(talks []*index.Talk) []*index.Talk {
	ids := make([]string, len(talks))
	for i, t := range talks {
		ids[i] = t.ID
	}
	texts := s.s.Texts(ids)
	out := make([]index.Talk, len(talks))
	ptrs := make([]*index.Talk, len(talks))
	for i, t := range talks {
		out[i] = *t
		out[i].Abstract, out[i].Description = texts[i].Abstract, texts[i].Description
		ptrs[i] = &out[i]
	}
	return ptrs
}

func containsFold(list []string, s string) bool {
	for _, v := range list {
		if strings.EqualFold(v, s) {
			return true
		}
	}
	return false
}

// speakerSlug is the path of a speaker's page: the slug of the name, or
// for a name with no ASCII letters a short hash of it.
func speakerSlug(name string) string {
	if s := ingest.Slug(name); s != "" {
		return s
	}
	sum := sha1.Sum([]byte(strings.ToLower(strings.TrimSpace(name))))
	return "speaker-" + hex.EncodeToString(sum[:])[:6]
}

// running says whether t is on at instant at: started, not yet ended.
func running(t *index.Talk, at time.Time) bool {
	return t.Start != nil && t.End != nil && !t.Start.After(at) && t.End.After(at)
}

// nowAndNext are the talks on at instant at, and the next talks to start
// in every room: those starting first after at (talks without a room count
// as one room), in schedule order. A cancelled talk is neither: the room
// is free, or the next talk in it is the one held.
func (c *catalog) nowAndNext(at time.Time) (now, next []*index.Talk) {
	nextAt := map[string]time.Time{}
	for _, t := range c.talks {
		if t.Start == nil || t.Cancelled {
			continue
		}
		if running(t, at) {
			now = append(now, t)
		}
		if n, ok := nextAt[t.Room]; t.Start.After(at) && (!ok || t.Start.Before(n)) {
			nextAt[t.Room] = *t.Start
		}
	}
	for _, t := range c.talks {
		if n, ok := nextAt[t.Room]; ok && t.Start != nil && !t.Cancelled && t.Start.Equal(n) {
			next = append(next, t)
		}
	}
	return now, next
}

// overlapping says whether both talks are scheduled, neither cancelled,
// and their times meet: one attendee cannot be at both.
func overlapping(a, b *index.Talk) bool {
	return a.Start != nil && a.End != nil && b.Start != nil && b.End != nil && !a.Cancelled && !b.Cancelled &&
		a.Start.Before(*b.End) && b.Start.Before(*a.End)
}
