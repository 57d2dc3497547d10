package search

import (
	"context"
	"fmt"
	"sort"
)

// MaxAgenda bounds the talks of one agenda: a conference day has a few
// dozen slots, and the related lists of each are merged.
const MaxAgenda = 200

// agendaRelatedCount is how many talks "more like my agenda" suggests.
const agendaRelatedCount = 10

// RelatedToAll suggests talks like a whole agenda: the related talks of
// each talk of ids (relatedOf, kept per snapshot), merged, with the talks
// of the agenda left out. A talk related to several agenda talks ranks by
// the sum of its scores, so what the agenda shares comes first; its shared
// terms are those of its best link. Clash says it runs against a talk of
// the agenda in another room. Unknown ids are skipped: the caller reports
// them (Talk says which exist).
func (e *Engine) RelatedToAll(ctx context.Context, ids []string) ([]Related, error) {
	if len(ids) > MaxAgenda {
		return nil, fmt.Errorf("%d talks in an agenda, more than %d: %w", len(ids), MaxAgenda, ErrInvalid)
	}
	s, done, err := e.acquire()
	if err != nil {
		return nil, err
	}
	defer done()
	in := map[string]bool{}
	var agenda []*doc
	for _, id := range ids {
		if d, ok := s.lookUp(id); ok && !in[id] {
			in[id] = true
			agenda = append(agenda, d)
		}
	}
	type merged struct {
		r    Related
		best float64
		ord  int
	}
	byID := map[string]*merged{}
	for _, d := range agenda {
		rel, err := s.relatedOf(ctx, d)
		if err != nil {
			return nil, fmt.Errorf("related talks of %s: %w", d.talk.ID, err)
		}
		for _, r := range rel {
			if in[r.ID] {
				continue
			}
			m, ok := byID[r.ID]
			if !ok {
				rd, _ := s.lookUp(r.ID) // a related talk is the corpus's
				m = &merged{r: r, ord: int(rd.ord)}
				m.r.Score, m.r.Clash = 0, false
				byID[r.ID] = m
			}
			m.r.Score += r.Score
			if r.Score > m.best {
				m.best, m.r.SharedTerms = r.Score, r.SharedTerms
			}
		}
	}
	out := make([]Related, 0, len(byID))
	ords := make(map[string]int, len(byID))
	for id, m := range byID {
		m.r.Score = round3(m.r.Score)
		rd, _ := s.lookUp(id)
		for _, d := range agenda {
			m.r.Clash = m.r.Clash || d.talk.Clashes(*rd.talk)
		}
		out = append(out, m.r)
		ords[id] = m.ord
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return ords[out[i].ID] < ords[out[j].ID]
	})
	return out[:min(len(out), agendaRelatedCount)], nil
}
