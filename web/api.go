package web

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/talksearch/talksearch/search"
	"github.com/talksearch/talksearch/search/overlap"
)

// maxIDLen bounds a talk id in a path; real ids are a slug and a hash.
const maxIDLen = 200

func (s *server) apiSearch(c *gin.Context) {
	_, _, res, err := s.runSearch(c, false)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, normalizeResult(res))
}

func (s *server) apiTalk(c *gin.Context) {
	t, err := s.talk(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, normalizeTalk(t))
}

func (s *server) apiOverlaps(c *gin.Context) {
	rep, err := s.runOverlaps(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	body, err := s.overlapsJSON(rep)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.Data(http.StatusOK, "application/json; charset=utf-8", body)
}

// encodedReport is an overlap report and its API JSON.
type encodedReport struct {
	rep  *overlap.Report
	body []byte
}

// overlapsJSON is the API's JSON of rep. The engine detects overlaps once
// per corpus and minimum and hands out that same, unchanging report, whose
// tens of kilobytes of JSON cost more than all the rest of the request: the
// last encoding is kept, keyed by the report itself.
func (s *server) overlapsJSON(rep *overlap.Report) ([]byte, error) {
	if last := s.lastOverlaps.Load(); last != nil && last.rep == rep {
		return last.body, nil
	}
	body, err := json.Marshal(normalizeReport(rep))
	if err != nil {
		return nil, fmt.Errorf("encode overlaps: %w", err)
	}
	s.lastOverlaps.Store(&encodedReport{rep: rep, body: body})
	return body, nil
}

func (s *server) healthz(c *gin.Context) {
	c.JSON(http.StatusOK, gin.H{"status": "ok"})
}

// runSearch reads the search from the URL and runs it: one path for the
// page (paged) and the API, so both accept and answer the same.
func (s *server) runSearch(c *gin.Context, paged bool) (req search.Request, page int, res *search.Result, err error) {
	if req, page, err = s.parseSearch(c.Request.URL.Query(), paged); err != nil {
		return req, 0, nil, err
	}
	if res, err = s.s.Search(c.Request.Context(), req); err != nil {
		return req, 0, nil, err
	}
	c.Set(ctxHits, res.Total)
	return req, page, res, nil
}

// runOverlaps reads the threshold from the URL and gets the report.
func (s *server) runOverlaps(c *gin.Context) (*overlap.Report, error) {
	min, err := parseMin(c.Request.URL.Query())
	if err != nil {
		return nil, err
	}
	rep, err := s.s.Overlaps(c.Request.Context(), min)
	if err != nil {
		return nil, err
	}
	c.Set(ctxHits, len(rep.Pairs))
	return rep, nil
}

// talk looks up the talk named by the :id of the path.
func (s *server) talk(c *gin.Context) (*search.TalkDetail, error) {
	id := c.Param("id")
	if id == "" || len(id) > maxIDLen {
		return nil, invalidf("talk id must be 1 to %d bytes", maxIDLen)
	}
	return s.s.Talk(c.Request.Context(), id)
}

// The normalize functions give the API its exact shape: lists are always
// JSON arrays, never null, whatever the engine left nil; and HTML fragments
// (highlights, passages) hold nothing but escaped text and <mark>, as the
// pages do, so a client may insert them as HTML. They copy rather than
// change what the engine returned.

func normalizeResult(r *search.Result) *search.Result {
	out := *r
	out.Hits = make([]search.Hit, len(r.Hits))
	for i, h := range r.Hits {
		h.Speakers = nonNil(h.Speakers)
		h.Highlights.Title = safeFragments(h.Highlights.Title)
		h.Highlights.Abstract = safeFragments(h.Highlights.Abstract)
		out.Hits[i] = h
	}
	out.Facets.Track = nonNil(r.Facets.Track)
	out.Facets.Level = nonNil(r.Facets.Level)
	out.Facets.Room = nonNil(r.Facets.Room)
	if out.Facets.Missing == nil {
		out.Facets.Missing = map[string]int{}
	}
	return &out
}

func normalizeTalk(t *search.TalkDetail) *search.TalkDetail {
	out := *t
	out.Sources = nonNil(t.Sources)
	out.Related = make([]search.Related, len(t.Related))
	for i, r := range t.Related {
		r.SharedTerms = nonNil(r.SharedTerms)
		out.Related[i] = r
	}
	return &out
}

func normalizeReport(r *overlap.Report) *overlap.Report {
	out := *r
	out.Pairs = make([]overlap.Pair, len(r.Pairs))
	for i, p := range r.Pairs {
		p.SharedTerms = nonNil(p.SharedTerms)
		p.Passages.A = safeFragments(p.Passages.A)
		p.Passages.B = safeFragments(p.Passages.B)
		out.Pairs[i] = p
	}
	out.Clusters = make([]overlap.Cluster, len(r.Clusters))
	for i, cl := range r.Clusters {
		cl.IDs = nonNil(cl.IDs)
		cl.Titles = nonNil(cl.Titles)
		out.Clusters[i] = cl
	}
	out.Clashes = nonNil(r.Clashes)
	out.Merged = make([]overlap.Merged, len(r.Merged))
	for i, m := range r.Merged {
		m.Sources = nonNil(m.Sources)
		out.Merged[i] = m
	}
	return &out
}

func safeFragments(fs []string) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = string(safeHighlight(f))
	}
	return out
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
