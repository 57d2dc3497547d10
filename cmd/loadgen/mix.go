package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Kind is one kind of request of the mix.
type Kind string

// The kinds of request, in report order.
const (
	KindSearch   Kind = "search"
	KindFiltered Kind = "filtered"
	KindBrowse   Kind = "browse"
	KindPage     Kind = "page"
	KindTyping   Kind = "typing"
	KindTalk     Kind = "talk"
	KindRelated  Kind = "related"
	KindOverlaps Kind = "overlaps"
	KindHealthz  Kind = "healthz"
)

var kinds = []Kind{KindSearch, KindTyping, KindFiltered, KindBrowse, KindPage, KindTalk, KindRelated, KindOverlaps, KindHealthz}

// defaultWeights is the mix of an attendee crowd between sessions: mostly
// searching (the page as they type, apps through the API), then opening
// talks and their related talks.
var defaultWeights = map[Kind]int{
	KindSearch:   25,
	KindTyping:   20,
	KindFiltered: 12,
	KindBrowse:   5,
	KindPage:     8,
	KindTalk:     10,
	KindRelated:  12,
	KindOverlaps: 3,
	KindHealthz:  5,
}

// isSearch tells the kinds that run a search on the server.
func (k Kind) isSearch() bool {
	return k == KindSearch || k == KindTyping || k == KindFiltered || k == KindBrowse || k == KindPage
}

// headerFragment is the header with which the search page's script asks
// for the results part of the page only, as the attendee types.
const headerFragment = "X-Talksearch-Fragment"

// header is the request header a kind sends, if any.
func (k Kind) header() (name, value string) {
	if k == KindTyping {
		return headerFragment, "1"
	}
	return "", ""
}

func kindList() string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}

// queries are what attendees type: products, topics, acronyms, word
// variants, speakers and companies, questions, misspellings, and the query
// syntax (phrases, exclusions, field prefixes) including broken syntax
// that the server must still answer.
var queries = []string{
	"KV cache", "KV-cache", "kv caching", "Monarch", "torch.compile", "compile",
	"FSDP", "DDP", "mixture of experts", "MoE", "reinforcement learning", "RL",
	"vLLM", "speculative decoding", "flex attention", "DeepSeek-V3", "FP8", "float8",
	"NVFP4", "MI300", "ROCm", "AMD", "C++", "all-to-all", "<1ms", "NCCL", "Triton",
	"DualPipe", "Kubernetes", "Ray", "Helion", "torchtitan", "quantization",
	"inference on edge devices", "how do I train on many GPUs", "LLM serving latency",
	"distributed checkpointing", "Blackwell", "Hopper", "GEMM kernels", "Hugging Face",
	"Red Hat", "Meta", "IBM Spyre", "Matt White", "Lightning", "pipeline parallelism",
	"tensor parallel", "symmetric memory", "memory", "attention", "ExecuTorch",
	// typos
	"Monrach", "torchtittan", "speculativ decoding", "flexatention", "quantizaton",
	"distribted training", "kuberntes", "infrence",
	// syntax, good and broken
	`"KV cache"`, `"mixture of experts" -keynote`, "title:compile", "speaker:White",
	"track:Inference", `"unbalanced`, "a AND (b OR", "+-:><=^~*?", "C++ -python",
}

// words are the words of the queries, for --distinct queries.
var words = func() []string {
	seen := map[string]bool{}
	var out []string
	for _, q := range queries {
		for _, w := range strings.Fields(q) {
			w = strings.Trim(w, `"+-:()`)
			if len(w) > 1 && !seen[w] && !strings.Contains(w, ":") {
				seen[w] = true
				out = append(out, w)
			}
		}
	}
	return out
}()

// corpusInfo is what discovery learnt about the server's data.
type corpusInfo struct {
	IDs    []string
	Tracks []string
	Levels []string
	Rooms  []string
	Total  int
	// MaxOffset is the deepest offset the server answered, when it
	// refused a deeper one; 0 when it listed every talk.
	MaxOffset int
}

// searchResponse is the part of the /api/search answer discovery reads.
type searchResponse struct {
	Total  int                   `json:"total"`
	Hits   []struct{ ID string } `json:"hits"`
	Facets struct {
		Track, Level, Room []struct{ Value string }
	} `json:"facets"`
}

// discover pages through an empty search, which lists every talk, to
// learn the ids and facet values the requests will use. A server bounds
// how deep a listing goes (10,000 talks): a 400 past the first page ends
// the discovery with the ids listed so far, which the browse keeps to.
func discover(ctx context.Context, c *http.Client, base *url.URL) (*corpusInfo, error) {
	const page = 50
	info := &corpusInfo{}
	for offset := 0; ; offset += page {
		u := endpoint(base, "/api/search", url.Values{"limit": {strconv.Itoa(page)}, "offset": {strconv.Itoa(offset)}})
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.Do(req)
		if err != nil {
			return nil, fmt.Errorf("discover: %w", err)
		}
		var r searchResponse
		err = json.NewDecoder(resp.Body).Decode(&r)
		resp.Body.Close()
		if resp.StatusCode == http.StatusBadRequest && offset > 0 {
			info.MaxOffset = offset - page
			break
		}
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("discover: GET %s: %s", u, resp.Status)
		}
		if err != nil {
			return nil, fmt.Errorf("discover: decode %s: %w", u, err)
		}
		if offset == 0 {
			info.Total = r.Total
			for _, v := range r.Facets.Track {
				info.Tracks = append(info.Tracks, v.Value)
			}
			for _, v := range r.Facets.Level {
				info.Levels = append(info.Levels, v.Value)
			}
			for _, v := range r.Facets.Room {
				info.Rooms = append(info.Rooms, v.Value)
			}
		}
		for _, h := range r.Hits {
			info.IDs = append(info.IDs, h.ID)
		}
		if len(r.Hits) < page || len(info.IDs) >= r.Total {
			break
		}
	}
	if len(info.IDs) == 0 {
		return nil, fmt.Errorf("discover: the server at %s lists no talks", base)
	}
	return info, nil
}

// mix picks requests at random, by weight, from the kinds allowed.
type mix struct {
	kinds   []Kind
	cumul   []int // cumulative weights, same order as kinds
	base    *url.URL
	corpus  *corpusInfo
	browseN int // pages of 20 in the browse
	// distinct makes almost every query new, so that a result cache in
	// the server cannot answer it: the worst case of as-you-type search.
	distinct bool
}

func newMix(base *url.URL, corpus *corpusInfo, only []Kind, distinct bool) *mix {
	browseN := (min(corpus.Total, len(corpus.IDs)) + 19) / 20
	if corpus.MaxOffset > 0 {
		// A page past the server's deepest offset would be refused.
		browseN = min(browseN, corpus.MaxOffset/20+1)
	}
	m := &mix{base: base, corpus: corpus, browseN: max(1, browseN), distinct: distinct}
	total := 0
	for _, k := range kinds {
		w := defaultWeights[k]
		if len(only) > 0 {
			if !slices.Contains(only, k) {
				continue
			}
			w = 1 // --only kinds are sent evenly
		}
		total += w
		m.kinds = append(m.kinds, k)
		m.cumul = append(m.cumul, total)
	}
	return m
}

// next returns a kind and the URL of one request of it.
func (m *mix) next(r *rand.Rand) (Kind, string) {
	n := r.IntN(m.cumul[len(m.cumul)-1])
	i, _ := slices.BinarySearch(m.cumul, n+1)
	k := m.kinds[i]
	return k, m.url(k, r)
}

// query is what one attendee asks: one of the queries, or as they type
// it, a prefix of one (the page searches as you type).
func (m *mix) query(r *rand.Rand) string {
	if r.IntN(4) == 0 {
		return m.typed(r)
	}
	if m.distinct {
		return distinctQuery(r)
	}
	return queries[r.IntN(len(queries))]
}

// typed is a query as the page sends it while one types: a prefix of at
// least two bytes, or the whole query.
func (m *mix) typed(r *rand.Rand) string {
	q := queries[r.IntN(len(queries))]
	if m.distinct {
		q = distinctQuery(r)
	}
	if len(q) > 2 {
		q = q[:2+r.IntN(len(q)-1)]
	}
	return q
}

// distinctQuery joins two or three random words and misspells one now and
// then: 60 words give over 200,000 different queries.
func distinctQuery(r *rand.Rand) string {
	n := 2 + r.IntN(2)
	ws := make([]string, n)
	for i := range ws {
		ws[i] = words[r.IntN(len(words))]
	}
	if w := ws[0]; r.IntN(3) == 0 && len(w) > 3 {
		i := r.IntN(len(w) - 1)
		ws[0] = w[:i] + string(w[i+1]) + string(w[i]) + w[i+2:]
	}
	return strings.Join(ws, " ")
}

func (m *mix) url(k Kind, r *rand.Rand) string {
	pick := func(s []string) string { return s[r.IntN(len(s))] }
	switch k {
	case KindSearch:
		return endpoint(m.base, "/api/search", url.Values{"q": {m.query(r)}})
	case KindFiltered:
		v := url.Values{}
		if r.IntN(4) > 0 {
			v.Set("q", m.query(r))
		}
		if len(m.corpus.Tracks) > 0 {
			v.Add("track", pick(m.corpus.Tracks))
			if r.IntN(3) == 0 {
				v.Add("track", pick(m.corpus.Tracks))
			}
		}
		if len(m.corpus.Levels) > 0 && r.IntN(2) == 0 {
			v.Set("level", pick(m.corpus.Levels))
		}
		if len(m.corpus.Rooms) > 0 && r.IntN(3) == 0 {
			v.Set("room", pick(m.corpus.Rooms))
		}
		if r.IntN(3) == 0 {
			v.Set("sort", "time")
		}
		return endpoint(m.base, "/api/search", v)
	case KindBrowse:
		v := url.Values{"offset": {strconv.Itoa(20 * r.IntN(m.browseN))}, "limit": {"20"}}
		if r.IntN(2) == 0 {
			v.Set("sort", "time")
		}
		return endpoint(m.base, "/api/search", v)
	case KindPage:
		return endpoint(m.base, "/", url.Values{"q": {m.query(r)}})
	case KindTyping:
		return endpoint(m.base, "/", url.Values{"q": {m.typed(r)}})
	case KindTalk:
		return endpoint(m.base, "/talks/"+url.PathEscape(pick(m.corpus.IDs)), nil)
	case KindRelated:
		return endpoint(m.base, "/api/talks/"+url.PathEscape(pick(m.corpus.IDs)), nil)
	case KindOverlaps:
		return endpoint(m.base, "/api/overlaps", nil)
	default:
		return endpoint(m.base, "/healthz", nil)
	}
}

func endpoint(base *url.URL, path string, q url.Values) string {
	u := *base
	u.Path = base.Path + path
	u.RawQuery = q.Encode()
	return u.String()
}
