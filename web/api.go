package web

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/talksearch/talksearch/search"
	"github.com/talksearch/talksearch/search/overlap"
)

// maxIDLen bounds a talk id in a path; real ids are a slug and a hash.
const maxIDLen = 200

func (s *server) apiSearch(c *gin.Context) {
	req, _, err := s.parseSearch(c.Request.URL.Query(), false)
	if err != nil {
		s.fail(c, err)
		return
	}
	s.answer(c, "api "+searchKey(req, 0), func(ctx context.Context) (*response, error) {
		res, err := s.s.Search(ctx, req)
		if err != nil {
			return nil, err
		}
		out := normalizeResult(res)
		out.TookMS = 0 // filled in per answer
		return searchJSONResponse(out, int(res.Total))
	})
}

func (s *server) apiTalk(c *gin.Context) {
	id, err := talkID(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	s.answerGzip(c, "api talk "+id, typeJSON, func(ctx context.Context) ([]byte, int, error) {
		t, err := s.s.Talk(ctx, id)
		if err != nil {
			return nil, 0, err
		}
		body, err := encodeJSON(normalizeTalk(t))
		return body, -1, err
	})
}

func (s *server) apiOverlaps(c *gin.Context) {
	min, err := parseMin(c.Request.URL.Query())
	if err != nil {
		s.fail(c, err)
		return
	}
	s.answerGzip(c, "api overlaps "+formatMin(min), typeJSON, func(ctx context.Context) ([]byte, int, error) {
		rep, err := s.s.Overlaps(ctx, min)
		if err != nil {
			return nil, 0, err
		}
		body, err := encodeJSON(normalizeReport(rep))
		return body, len(rep.Pairs), err
	})
}

func (s *server) healthz(c *gin.Context) {
	c.JSON(http.StatusOK, gin.H{"status": "ok"})
}

// talkID is the :id of the path, bounded.
func talkID(c *gin.Context) (string, error) {
	id := c.Param("id")
	if id == "" || len(id) > maxIDLen {
		return "", invalidf("talk id must be 1 to %d bytes", maxIDLen)
	}
	return id, nil
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
		h.Highlights.Speakers = safeFragments(h.Highlights.Speakers)
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
