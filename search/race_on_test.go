//go:build race

package search

// raceDetector: the race detector makes sync.Pool drop a share of what is
// put back, so allocation counts under it are not the engine's.
const raceDetector = true
