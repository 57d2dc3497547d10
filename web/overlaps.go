package web

import (
	"context"
	"errors"
	"html/template"
	"math"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/talksearch/talksearch/search"
	"github.com/talksearch/talksearch/search/overlap"
)

// maxPairsShown bounds the organizer page; the API has them all.
const maxPairsShown = 100

// overlapsPage is the view of GET /overlaps.
type overlapsPage struct {
	page
	Min        string // the threshold as asked, for the form
	Clusters   []clusterView
	Pairs      []pairView
	PairsTotal int
	Clashes    []clashView
}

type talkRef struct {
	URL   string
	Title string
	When  string
	Room  string
}

type clusterView struct {
	Label string
	Talks []talkRef
}

type pairView struct {
	A, B        talkRef
	Percent     int
	Kind        string
	SharedTerms []string
	PassagesA   []template.HTML
	PassagesB   []template.HTML
}

type clashView struct {
	A, B    talkRef
	Percent int
}

func (s *server) overlapsPage(c *gin.Context) {
	q := c.Request.URL.Query()
	min, err := parseMin(q)
	if err != nil {
		s.fail(c, err)
		return
	}
	ctx := c.Request.Context()
	rep, err := s.s.Overlaps(ctx, min)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.Set(ctxHits, len(rep.Pairs))
	v := overlapsPage{
		page:       page{Title: "Overlapping talks"},
		Min:        q.Get("min"),
		PairsTotal: len(rep.Pairs),
	}
	refs := talkRefs{s: s, ctx: ctx, cache: map[string]talkRef{}}
	for _, cl := range rep.Clusters {
		cv := clusterView{Label: cl.Label}
		for _, id := range cl.IDs {
			cv.Talks = append(cv.Talks, refs.get(id))
		}
		v.Clusters = append(v.Clusters, cv)
	}
	for i, p := range rep.Pairs {
		if i == maxPairsShown {
			break
		}
		pv := pairView{
			A: refs.get(p.A), B: refs.get(p.B),
			Percent:     percent(p.Score),
			Kind:        pairKindLabel(p.Kind),
			SharedTerms: p.SharedTerms,
		}
		for _, h := range p.Passages.A {
			pv.PassagesA = append(pv.PassagesA, safeHighlight(h))
		}
		for _, h := range p.Passages.B {
			pv.PassagesB = append(pv.PassagesB, safeHighlight(h))
		}
		v.Pairs = append(v.Pairs, pv)
	}
	for _, cl := range rep.Clashes {
		v.Clashes = append(v.Clashes, clashView{A: refs.get(cl.A), B: refs.get(cl.B), Percent: percent(cl.Score)})
	}
	if refs.err != nil {
		s.fail(c, refs.err)
		return
	}
	s.render(c, http.StatusOK, "overlaps", v)
}

func percent(score float64) int { return int(math.Round(score * 100)) }

// talkRefs looks up the titles and slots of the talks a report names, once
// each. A talk the engine no longer knows is shown by its id; any other
// failure fails the page.
type talkRefs struct {
	s     *server
	ctx   context.Context
	cache map[string]talkRef
	err   error
}

func (r *talkRefs) get(id string) talkRef {
	if ref, ok := r.cache[id]; ok || r.err != nil {
		return ref
	}
	ref := talkRef{URL: "/talks/" + id, Title: id}
	t, err := r.s.s.Talk(r.ctx, id)
	switch {
	case err == nil:
		ref.Title = t.Title
		ref.When = formatWhen(t.Start, t.End, r.s.opts.Location)
		ref.Room = t.Room
	case errors.Is(err, search.ErrNotFound):
	default:
		r.err = err
	}
	r.cache[id] = ref
	return ref
}

// pairKindLabel names a kind of overlap for people.
func pairKindLabel(kind string) string {
	switch kind {
	case overlap.KindDuplicate:
		return "Duplicate"
	case overlap.KindNearDuplicate:
		return "Near-duplicate"
	case overlap.KindTopical:
		return "Same topic"
	default:
		return kind
	}
}
