package search

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/talksearch/talksearch/index"
)

// TestKnownFormGetsSynonyms: a word the analyzer reads as the plural of a
// word the index knows ("postgress" as POSTGRESs, knownForm) gets that
// word's synonyms too: it finds what "postgres" finds, the talks saying
// PostgreSQL only included.
func TestKnownFormGetsSynonyms(t *testing.T) {
	var talks []index.Talk
	add := func(title, abstract string) {
		start := time.Date(2026, 4, 8, 9+len(talks), 0, 0, 0, time.UTC)
		end := start.Add(time.Hour)
		talks = append(talks, index.Talk{ID: fmt.Sprintf("t%d", len(talks)), Conference: index.Conference{ID: "c", Name: "C"},
			Title: title, Abstract: abstract, Kind: index.KindTalk, Start: &start, End: &end, Scheduled: true,
			Room: "A", Sources: []string{"hand.json"}})
	}
	for _, s := range []string{"vacuum", "replication", "indexes"} {
		add("Postgres "+s, "How PostgreSQL does "+s+".")
	}
	add("Upgrading PostgreSQL", "Major versions without downtime.")
	add("Sharding PostgreSQL", "Tables across machines.")
	// Talks about other things: the alias is mined by its lift over chance.
	for i := range 30 {
		add(fmt.Sprintf("Mesh networks, part %d", i+1), "Radios on rooftops.")
	}
	e := newEngineT(t, talks, Options{})
	want, err := e.Search(context.Background(), Request{Query: "postgres"})
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Hits) != 5 || len(want.Synonyms) == 0 {
		t.Fatalf("postgres: %v, synonyms %v; want the five talks by postgres → PostgreSQL", hitIDs(want), want.Synonyms)
	}
	got, err := e.Search(context.Background(), Request{Query: "postgress"})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(hitIDs(want), hitIDs(got)); d != "" {
		t.Errorf("postgress: hits (-postgres +postgress):\n%s", d)
	}
	if d := cmp.Diff(want.Synonyms, got.Synonyms); d != "" {
		t.Errorf("postgress: synonyms (-postgres +postgress):\n%s", d)
	}
}
