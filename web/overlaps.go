package web

import (
	"context"
	"html/template"
	"math"

	"github.com/gin-gonic/gin"

	"github.com/talksearch/talksearch/search/overlap"
)

// maxPairsShown bounds the organizer page; the API has them all.
const maxPairsShown = 100

// overlapsPage is the view of GET /overlaps.
type overlapsPage struct {
	page
	Min        string  // the threshold as asked, for the form
	DefaultMin float64 // what an empty threshold means
	Clusters   []clusterView
	Pairs      []pairView
	PairsTotal int
	Clashes    []clashView
	Merged     []overlap.Merged
}

type talkRef struct {
	URL   string
	Title string
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
	When    string // the span both talks share
	Percent int
}

func (s *server) overlapsPage(c *gin.Context) {
	min, err := parseMin(c.Request.URL.Query())
	if err != nil {
		s.fail(c, err)
		return
	}
	s.answerGzip(c, "overlaps "+formatMin(min), typeHTML, func(ctx context.Context) ([]byte, int, error) {
		rep, err := s.s.Overlaps(ctx, min)
		if err != nil {
			return nil, 0, err
		}
		body, err := s.renderBytes("overlaps", "layout", s.overlapsView(formatMin(min), rep))
		return body, len(rep.Pairs), err
	})
}

func (s *server) overlapsView(min string, rep *overlap.Report) overlapsPage {
	v := overlapsPage{
		page:       s.newPage("Overlapping talks"),
		Min:        min,
		DefaultMin: overlap.DefaultMin,
		PairsTotal: len(rep.Pairs),
		Merged:     rep.Merged,
	}
	for _, cl := range rep.Clusters {
		cv := clusterView{Label: cl.Label}
		for i, id := range cl.IDs {
			title := ""
			if i < len(cl.Titles) {
				title = cl.Titles[i]
			}
			cv.Talks = append(cv.Talks, ref(id, title, ""))
		}
		v.Clusters = append(v.Clusters, cv)
	}
	for i, p := range rep.Pairs {
		if i == maxPairsShown {
			break
		}
		pv := pairView{
			A:           ref(p.A, p.TitleA, ""),
			B:           ref(p.B, p.TitleB, ""),
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
		cv := clashView{A: ref(cl.A, cl.TitleA, cl.RoomA), B: ref(cl.B, cl.TitleB, cl.RoomB), Percent: percent(cl.Score)}
		if !cl.Start.IsZero() {
			start, end := cl.Start, cl.End
			cv.When = formatWhen(&start, &end, s.opts.Location)
		}
		v.Clashes = append(v.Clashes, cv)
	}
	return v
}

// ref links a talk of a report; a talk without a title shows its id.
func ref(id, title, room string) talkRef {
	if title == "" {
		title = id
	}
	return talkRef{URL: "/talks/" + id, Title: title, Room: room}
}

func percent(score float64) int { return int(math.Round(score * 100)) }

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
