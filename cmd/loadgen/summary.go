package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// Summary is the report of one run.
type Summary struct {
	Target   string        `json:"target"`
	Clients  int           `json:"clients"`
	Talks    int           `json:"talks"`   // talks discovered on the server
	Seconds  float64       `json:"seconds"` // length of the main phase
	Kinds    []Stats       `json:"kinds"`
	All      Stats         `json:"all"`
	Searches Stats         `json:"searches"`
	Hostile  *HostileStats `json:"hostile,omitempty"`

	Ceiling              *Stats   `json:"ceiling,omitempty"` // /healthz alone, before the main phase
	CeilingErrors        []string `json:"ceiling_errors,omitempty"`
	SearchShareOfCeiling float64  `json:"search_share_of_ceiling,omitempty"`

	CPU        *CPUStats `json:"cpu,omitempty"`
	CeilingCPU *CPUStats `json:"ceiling_cpu,omitempty"`

	RSS          *RSSStats     `json:"rss,omitempty"`
	Reload       *ReloadResult `json:"reload,omitempty"`
	ErrorSamples []string      `json:"error_samples,omitempty"`
}

// Stats are the figures of one kind of request, or of a group of kinds.
type Stats struct {
	Name   string         `json:"name"`
	Count  int            `json:"count"`
	PerSec float64        `json:"per_s"`
	P50MS  float64        `json:"p50_ms"`
	P99MS  float64        `json:"p99_ms"`
	MaxMS  float64        `json:"max_ms"`
	Errors map[string]int `json:"errors,omitempty"` // by status code, or "transport"
}

// ErrorCount is the number of failed requests.
func (s Stats) ErrorCount() int {
	n := 0
	for _, c := range s.Errors {
		n += c
	}
	return n
}

// Errors is the number of failed requests of the run, both phases.
func (s *Summary) Errors() int {
	n := s.All.ErrorCount()
	if s.Ceiling != nil {
		n += s.Ceiling.ErrorCount()
	}
	return n
}

func (p *phase) stats(k Kind) Stats {
	return p.statsWhere(string(k), func(x Kind) bool { return x == k })
}

// statsWhere merges the clients' records of the kinds that match.
func (p *phase) statsWhere(name string, match func(Kind) bool) Stats {
	s := Stats{Name: name}
	var lat []time.Duration
	for _, r := range p.rec {
		for k, l := range r.lat {
			if match(k) {
				lat = append(lat, l...)
			}
		}
		for k, byClass := range r.errors {
			if !match(k) {
				continue
			}
			if s.Errors == nil {
				s.Errors = map[string]int{}
			}
			for class, n := range byClass {
				s.Errors[class] += n
			}
		}
	}
	s.Count = len(lat)
	if s.Count == 0 {
		return s
	}
	slices.Sort(lat)
	s.PerSec = float64(s.Count) / p.elapsed.Seconds()
	s.P50MS = ms(quantile(lat, 0.50))
	s.P99MS = ms(quantile(lat, 0.99))
	s.MaxMS = ms(lat[len(lat)-1])
	return s
}

// quantile is the nearest-rank quantile of sorted latencies.
func quantile(sorted []time.Duration, q float64) time.Duration {
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func (s *Summary) writeJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(s)
}

func (s *Summary) writeText(w io.Writer) error {
	fmt.Fprintf(w, "target %s, %d clients, %.1f s, %d talks\n\n", s.Target, s.Clients, s.Seconds, s.Talks)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "kind\trequests\treq/s\tp50 ms\tp99 ms\tmax ms\terrors\t")
	row := func(st Stats) {
		fmt.Fprintf(tw, "%s\t%d\t%.0f\t%.2f\t%.2f\t%.2f\t%s\t\n", st.Name, st.Count, st.PerSec, st.P50MS, st.P99MS, st.MaxMS, errorText(st.Errors))
	}
	for _, st := range s.Kinds {
		row(st)
	}
	row(s.Searches)
	row(s.All)
	if s.Ceiling != nil {
		c := *s.Ceiling
		c.Name = "ceiling (healthz alone)"
		row(c)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	if s.Ceiling != nil {
		fmt.Fprintf(w, "searches: %.0f/s = %.0f%% of the /healthz ceiling (%.0f/s)\n", s.Searches.PerSec, 100*s.SearchShareOfCeiling, s.Ceiling.PerSec)
	}
	if c := s.CPU; c != nil && c.ServerSeconds > 0 {
		fmt.Fprintf(w, "server CPU: %.3f ms per request (%.2f cores busy)", c.ServerMSPerRequest, c.ServerCores)
		if cc := s.CeilingCPU; cc != nil && cc.ServerMSPerRequest > 0 {
			fmt.Fprintf(w, "; /healthz alone %.3f ms per request", cc.ServerMSPerRequest)
		}
		fmt.Fprintf(w, "; loadgen %.3f ms per request\n", c.LoadgenMSPerRequest)
	}
	if s.Hostile != nil {
		fmt.Fprintln(w, s.Hostile)
	}
	if s.Reload != nil {
		fmt.Fprintf(w, "reload at %.1f s: %s\n", s.Reload.AtSeconds, s.Reload)
	}
	if r := s.RSS; r != nil {
		fmt.Fprintf(w, "server RSS: start %s, peak %s, end %s, VmHWM %s\n", mib(r.StartKiB), mib(r.PeakKiB), mib(r.EndKiB), mib(r.HWMKiB))
		if len(r.Samples) > 2 {
			parts := make([]string, len(r.Samples))
			for i, x := range r.Samples {
				parts[i] = fmt.Sprintf("%.0fs:%.1f", x.AtSeconds, float64(x.KiB)/1024)
			}
			fmt.Fprintf(w, "RSS over time (MiB): %s\n", strings.Join(parts, " "))
		}
	}
	fmt.Fprintf(w, "errors: %s\n", errorText(s.All.Errors))
	for _, e := range append(s.CeilingErrors, s.ErrorSamples...) {
		fmt.Fprintf(w, "  e.g. %s\n", e)
	}
	return nil
}

func errorText(byClass map[string]int) string {
	if len(byClass) == 0 {
		return "none"
	}
	var parts []string
	for _, class := range slices.Sorted(maps.Keys(byClass)) {
		parts = append(parts, fmt.Sprintf("%s×%d", class, byClass[class]))
	}
	return strings.Join(parts, " ")
}
