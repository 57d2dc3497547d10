package web

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"
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
		res, err := s.search(c, ctx, req)
		if err != nil {
			return nil, err
		}
		out := *res
		out.TookMS = 0 // filled in per answer
		body, err := SearchJSON(&out)
		if err != nil {
			return nil, err
		}
		return searchJSONResponse(body, int(res.Total))
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
		body, err := TalkJSON(t)
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
		body, err := OverlapsJSON(rep)
		return body, len(rep.Pairs), err
	})
}

// healthz answers once the server serves an index, with that index's
// generation: it grows with every re-index, so a client that sees it grow
// knows the new corpus serves (a readiness signal for deploys and tests).
func (s *server) healthz(c *gin.Context) {
	h := healthDoc{Status: "ok", Generation: s.s.Generation()}
	if s.opts.ReloadStatus != nil {
		st := s.opts.ReloadStatus()
		h.Reloads, h.ReloadFailures, h.Reloading = &st.Reloads, &st.Failures, &st.Running
	}
	if s.opts.SourcesStatus != nil {
		h.Sources = s.opts.SourcesStatus()
	}
	if s.opts.Index != nil {
		h.Index = s.opts.Index()
	}
	c.JSON(http.StatusOK, h)
}

// talkID is the :id of the path, bounded.
func talkID(c *gin.Context) (string, error) {
	id := c.Param("id")
	if id == "" || len(id) > maxIDLen {
		return "", invalidf("talk id must be 1 to %d bytes", maxIDLen)
	}
	return id, nil
}
