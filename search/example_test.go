package search_test

import (
	"context"
	"fmt"
	"time"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search"
)

func Example() {
	at := func(h, m int) *time.Time {
		t := time.Date(2026, 4, 7, h, m, 0, 0, time.UTC)
		return &t
	}
	e, err := search.New([]index.Talk{
		{ID: "monarch", Title: "Monarch: An API To Your Supercomputer", Abstract: "Monarch runs <1ms actors.",
			Track: "Distributed", Room: "A", Start: at(10, 0), End: at(10, 30), Kind: index.KindTalk, Scheduled: true},
		{ID: "rl", Title: "Asynchronous RL", Abstract: "A system built on Monarch actors.",
			Track: "Distributed", Room: "B", Start: at(10, 15), End: at(10, 45), Kind: index.KindTalk, Scheduled: true},
		{ID: "kv", Title: "KV-Cache Serving", Abstract: "Caching for agents.", Track: "Inference", Kind: index.KindTalk},
	})
	if err != nil {
		panic(err)
	}
	defer e.Close()
	ctx := context.Background()

	r, err := e.Search(ctx, search.Request{Query: "Monrach actors caching", Tracks: []string{"Distributed"}})
	if err != nil {
		panic(err)
	}
	fmt.Println("did you mean:", r.DidYouMean)
	for _, h := range r.Hits {
		fmt.Println(h.ID, h.Highlights.Title, h.Highlights.Abstract)
	}
	// The track counts ignore the track selection: the KV talk matches
	// "caching" and is counted, though not listed.
	for _, f := range r.Facets.Track {
		fmt.Printf("track %s: %d selected=%v\n", f.Value, f.Count, f.Selected)
	}
	fmt.Println("without a room:", r.Facets.Missing["room"])

	d, err := e.Talk(ctx, "monarch")
	if err != nil {
		panic(err)
	}
	for _, rel := range d.Related {
		fmt.Println("related:", rel.ID, rel.SharedTerms, "clash:", rel.Clash)
	}
	// Output:
	// did you mean: Monarch actors caching
	// monarch [<mark>Monarch</mark>: An API To Your Supercomputer] [<mark>Monarch</mark> runs &lt;1ms <mark>actors</mark>.]
	// rl [] [A system built on <mark>Monarch</mark> <mark>actors</mark>.]
	// track Distributed: 2 selected=true
	// track Inference: 1 selected=false
	// without a room: 0
	// related: rl [monarch actors] clash: true
}
