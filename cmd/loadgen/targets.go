package main

import (
	"errors"
	"fmt"
	"time"
)

// Targets are figures a run must reach (the hardening issue's): zero
// values are not checked.
type Targets struct {
	SearchesPerS float64       // searches per second, at least
	P99          time.Duration // p99 latency of the searches, under
	Share        float64       // searches as a share of the /healthz ceiling, at least
}

// errMissed is a run whose figures missed a target; main exits 3 on it
// (1 is for failed requests), so a script can tell a slow run from a
// broken one.
var errMissed = errors.New("targets missed")

// check lists how the run fares against each target set, and an error
// wrapping errMissed when any is missed.
func (t Targets) check(s *Summary) (lines []string, err error) {
	missed := 0
	verdict := func(ok bool) string {
		if ok {
			return "met"
		}
		missed++
		return "MISSED"
	}
	if t.SearchesPerS > 0 {
		lines = append(lines, fmt.Sprintf("searches %.0f/s, target at least %.0f/s: %s",
			s.Searches.PerSec, t.SearchesPerS, verdict(s.Searches.PerSec >= t.SearchesPerS)))
	}
	if t.P99 > 0 {
		lines = append(lines, fmt.Sprintf("searches p99 %.2f ms, target under %s: %s",
			s.Searches.P99MS, t.P99, verdict(s.Searches.P99MS < ms(t.P99))))
	}
	if t.Share > 0 {
		lines = append(lines, fmt.Sprintf("searches %.1f%% of the /healthz ceiling, target at least %.0f%%: %s",
			100*s.SearchShareOfCeiling, 100*t.Share, verdict(s.SearchShareOfCeiling >= t.Share)))
	}
	if missed > 0 {
		return lines, fmt.Errorf("%d of %d: %w", missed, len(lines), errMissed)
	}
	return lines, nil
}
