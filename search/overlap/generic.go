package overlap

import "github.com/talksearch/talksearch/search/termvec"

// Generic-term down-weighting. The stop lists drop the words every
// submission to a PyTorch conference uses (PyTorch, training, GPU), but each
// corpus has more: in the seeds vLLM, LLM, inference, serving, CPU and
// torch.compile are each in one talk in ten. Two talks that share nothing
// but such words ("vLLM", "CPU", "KV cache" said in passing) are not about
// the same thing, however the weights add up. A topical pair whose cosine
// comes for at least genericShareMax from generic terms (in at least
// genericDF of the talks, and at least genericMinDF of them, so a call of a
// dozen proposals has none) keeps genericKeep of its score. On the seeds
// this takes five such pairs out of the top 30 and lets the
// launch-overhead/CUDA-Graph and async-RL pairs in (detect_test.go).
const (
	genericDF       = 0.08
	genericMinDF    = 5
	genericShareMax = 0.9
	genericKeep     = 0.6
)

// genericTerms marks the terms of the detector's vocabulary that are
// generic in its corpus.
func (d *detector) genericTerms() []bool {
	n := d.docs
	limit := max(genericMinDF, int32(genericDF*float64(n)+0.999))
	df := d.voc.DF()
	out := make([]bool, len(df))
	for id, c := range df {
		out[id] = c >= limit
	}
	return out
}

// genericScore is the hook of detector.score for topical pairs.
func (d *detector) genericScore(p *pairInfo) {
	if p.kind != KindTopical || p.cos <= 0 {
		return
	}
	var generic float64
	for _, sh := range termvec.Shared(d.vecs[p.i], d.vecs[p.j]) {
		if d.generic[sh.ID] {
			generic += sh.Weight
		}
	}
	if generic >= genericShareMax*p.cos {
		p.score *= genericKeep
	}
}
