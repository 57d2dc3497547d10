package overlap

import (
	"testing"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/ingest"
	"github.com/talksearch/talksearch/seeds"
)

// seedTalks are the real, deduplicated talks of the seeds.
func seedTalks(t testing.TB) []index.Talk {
	t.Helper()
	c, err := ingest.Load(seeds.FS)
	if err != nil {
		t.Fatalf("load seeds: %v", err)
	}
	return c.Talks
}
