package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// KindHostile is an attacker's search: GET /api/search with a query of one
// of the shapes that cost the most, new every time. It is sent
// only by the --hostile clients, besides the --clients, is no search of
// the report's "searches", and a 429 answer to it is the server defending
// itself, not an error: it is counted as refused.
const KindHostile Kind = "hostile"

// hostileMaxRunes is the server's query bound.
const hostileMaxRunes = 400

// hostileQuery is one attacker's query, of a random shape.
func hostileQuery(r *rand.Rand) string {
	var q string
	switch r.IntN(5) {
	case 0: // random non-words
		q = fill(r, func() string { return randomWord(r) })
	case 1: // misspelled real words
		q = fill(r, func() string { return misspell(r, words[r.IntN(len(words))]) })
	case 2: // many quoted phrases
		q = fill(r, func() string { return `"` + randomWord(r) + " " + misspell(r, words[r.IntN(len(words))]) + `"` })
	case 3: // dotted and joined words
		q = fill(r, func() string {
			return randomWord(r) + string(".-_/"[r.IntN(4)]) + randomWord(r) + "." + misspell(r, words[r.IntN(len(words))])
		})
	default: // all of it at once
		q = fill(r, func() string {
			switch r.IntN(3) {
			case 0:
				return randomWord(r)
			case 1:
				return `"` + misspell(r, words[r.IntN(len(words))]) + " " + randomWord(r) + `"`
			}
			return randomWord(r) + "." + randomWord(r)
		})
	}
	return q
}

// fill joins words from next up to the query bound.
func fill(r *rand.Rand, next func() string) string {
	var b strings.Builder
	for {
		w := next()
		if utf8.RuneCountInString(b.String())+1+utf8.RuneCountInString(w) > hostileMaxRunes {
			return b.String()
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w)
		if r.IntN(200) == 0 { // now and then a shorter one
			return b.String()
		}
	}
}

func randomWord(r *rand.Rand) string {
	const letters = "abcdefghijklmnopqrstuvwxyz"
	b := make([]byte, 4+r.IntN(9))
	for i := range b {
		b[i] = letters[r.IntN(len(letters))]
	}
	return string(b)
}

// misspell swaps two letters of w or drops one, as a typing error does.
func misspell(r *rand.Rand, w string) string {
	if len(w) < 4 {
		return w + randomWord(r)[:2]
	}
	i := r.IntN(len(w) - 1)
	if r.IntN(2) == 0 {
		return w[:i] + w[i+1:]
	}
	return w[:i] + string(w[i+1]) + string(w[i]) + w[i+2:]
}

func hostileURL(base *url.URL, r *rand.Rand) string {
	return endpoint(base, "/api/search", url.Values{"q": {hostileQuery(r)}})
}

// doHostile sends one hostile search. A 429 is refused (no error); a 200
// gives the server's own time for it (took_ms).
func doHostile(ctx context.Context, client *http.Client, u string) (lat time.Duration, tookMS float64, refused bool, class, msg string) {
	start := time.Now()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, 0, false, "transport", err.Error()
	}
	resp, err := client.Do(req)
	if err != nil {
		return time.Since(start), 0, false, "transport", err.Error()
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	lat = time.Since(start)
	switch {
	case err != nil:
		return lat, 0, false, "transport", fmt.Sprintf("GET %s: read body: %v", u, err)
	case resp.StatusCode == http.StatusTooManyRequests:
		if resp.Header.Get("Retry-After") == "" {
			return lat, 0, false, "429 without Retry-After", fmt.Sprintf("GET %s: 429 without Retry-After", u)
		}
		return lat, 0, true, "", ""
	case resp.StatusCode != http.StatusOK:
		return lat, 0, false, strconv.Itoa(resp.StatusCode), fmt.Sprintf("GET %.200s: %s", u, resp.Status)
	}
	took, ok := tookOf(body)
	if !ok {
		return lat, 0, false, "no took_ms", fmt.Sprintf("GET %.200s: no took_ms in the answer", u)
	}
	return lat, took, false, "", ""
}

// tookOf reads took_ms from a search answer without decoding all of it.
func tookOf(body []byte) (float64, bool) {
	const key = `"took_ms":`
	i := bytes.Index(body, []byte(key))
	if i < 0 {
		return 0, false
	}
	rest := body[i+len(key):]
	j := bytes.IndexAny(rest, ",}")
	if j < 0 {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(rest[:j]), 64)
	return f, err == nil
}

// HostileStats are the figures of the hostile clients.
type HostileStats struct {
	Clients  int `json:"clients"`
	Sent     int `json:"sent"`
	Answered int `json:"answered"`
	Refused  int `json:"refused"` // 429 with Retry-After
	// The server's own time (took_ms) of the hostile searches it answered.
	TookP50MS float64 `json:"took_p50_ms"`
	TookP99MS float64 `json:"took_p99_ms"`
	TookMaxMS float64 `json:"took_max_ms"`
}

func (p *phase) hostileStats(clients int) *HostileStats {
	if clients == 0 {
		return nil
	}
	h := &HostileStats{Clients: clients}
	var took []float64
	for _, r := range p.rec {
		h.Sent += len(r.lat[KindHostile])
		h.Refused += r.refused
		took = append(took, r.took...)
	}
	h.Answered = len(took)
	if len(took) > 0 {
		slices.Sort(took)
		at := func(q float64) float64 {
			return took[max(0, min(len(took)-1, int(float64(len(took))*q+0.999999)-1))]
		}
		h.TookP50MS, h.TookP99MS, h.TookMaxMS = at(0.5), at(0.99), took[len(took)-1]
	}
	return h
}

func (h *HostileStats) String() string {
	return fmt.Sprintf("hostile: %d clients sent %d, %d answered (server took p50 %.2f / p99 %.2f / max %.2f ms), %d refused with 429",
		h.Clients, h.Sent, h.Answered, h.TookP50MS, h.TookP99MS, h.TookMaxMS, h.Refused)
}
