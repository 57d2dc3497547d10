package scan

import (
	"context"
	"testing"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search/ranking"
)

// TestAdjacent counts the talks holding both terms in the fields asked
// for, and those saying them side by side, in that order, in one field
// (a description's counts; a track's name only when its field is asked
// for); most bounds the talks read, in document order.
func TestAdjacent(t *testing.T) {
	talks := []index.Talk{
		{ID: "a", Title: "Container security", Abstract: "Hardening.", Kind: index.KindTalk},
		{ID: "b", Title: "Security of a container", Abstract: "Namespaces.", Kind: index.KindTalk},
		{ID: "c", Title: "Containers", Abstract: "On security in general.", Kind: index.KindTalk},
		{ID: "d", Title: "Containers", Abstract: "Images.", Track: "Security", Kind: index.KindTalk},
		{ID: "e", Title: "Garbage", Abstract: "A container for garbage.", Description: "Container security as we see it.", Kind: index.KindTalk},
		{ID: "f", Title: "Firewalls", Abstract: "Security.", Kind: index.KindTalk},
	}
	idx, err := index.Build(talks)
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	sc, err := Open(idx, func(string, uint64) (bool, ranking.Damping) { return true, 0 }, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	fields := []string{index.FieldTitle, index.FieldAbstract, index.FieldDescription}
	ctx := context.Background()
	for _, c := range []struct {
		a, b           string
		most           int
		both, adjacent int
		fieldsOf       []string
	}{
		{"contain", "secur", 10, 4, 2, fields},
		{"secur", "contain", 10, 4, 0, fields},
		{"contain", "secur", 10, 3, 1, []string{index.FieldTitle, index.FieldTrackText}},
		{"secur", "contain", 2, 2, 0, fields},
		{"contain", "firewal", 10, 0, 0, fields},
	} {
		both, adjacent, err := sc.Adjacent(ctx, c.fieldsOf, c.a, c.b, c.most)
		if err != nil {
			t.Fatal(err)
		}
		if both != c.both || adjacent != c.adjacent {
			t.Errorf("Adjacent(%v, %s, %s, %d) = %d, %d; want %d, %d", c.fieldsOf, c.a, c.b, c.most, both, adjacent, c.both, c.adjacent)
		}
	}
}
