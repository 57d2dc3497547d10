package index

import "time"

// SetSegmentPagesEvery sets how often a large build drops its segments'
// pages (0: never) and returns the setting it replaced.
func SetSegmentPagesEvery(d time.Duration) time.Duration {
	old := segmentPagesEvery
	segmentPagesEvery = d
	return old
}
