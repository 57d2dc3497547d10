package web

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/emersion/go-ical"
	"github.com/rs/zerolog"
)

// TestCatalogHoldsNoTexts: the attendee pages' catalog holds the engine's
// own talks (no copy) without their abstracts and descriptions, and the
// files that carry those texts (a talk's calendar, the conference's frab
// schedule) still write them, read from the engine.
func TestCatalogHoldsNoTexts(t *testing.T) {
	e, err := realEngine()
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHandler(served(e), zerolog.Nop(), Options{ClientBudget: -1})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Warm(context.Background()); err != nil {
		t.Fatal(err)
	}
	c := h.srv.catalogNow()
	listed := e.Listing()
	if len(c.talks) != len(listed) || len(c.talks) == 0 {
		t.Fatalf("catalog of %d talks, the engine lists %d", len(c.talks), len(listed))
	}
	for i, tk := range c.talks {
		if tk != &listed[i] {
			t.Fatalf("catalog talk %d (%s) is a copy, not the engine's", i, tk.ID)
		}
		if tk.Abstract != "" || tk.Description != "" {
			t.Fatalf("catalog talk %s holds its texts", tk.ID)
		}
	}
	for _, conf := range c.conferences {
		for _, tk := range c.scope(conf).talks {
			if c.byID[tk.ID] != tk {
				t.Fatalf("the catalog of %s holds a copy of %s", conf.ID, tk.ID)
			}
		}
	}
	whole := map[string]string{}
	for _, tk := range e.Talks() {
		whole[tk.ID] = tk.Abstract
	}
	var id, conf string
	for _, tk := range c.talks {
		if tk.Start != nil && len(strings.Fields(whole[tk.ID])) >= 6 && tk.Conference.ID != "" {
			id, conf = tk.ID, tk.Conference.ID
			break
		}
	}
	if id == "" {
		t.Fatal("no scheduled seed talk with an abstract")
	}
	words := strings.Join(strings.Fields(whole[id])[:6], " ")

	cal, err := ical.NewDecoder(bytes.NewReader(getOK(t, h, "/talks/"+id+".ics").Body.Bytes())).Decode()
	if err != nil {
		t.Fatal(err)
	}
	if ev := cal.Events(); len(ev) != 1 {
		t.Fatalf("%d events in the talk's calendar, want 1", len(ev))
	} else if desc, _ := ev[0].Props.Text(ical.PropDescription); !strings.Contains(strings.Join(strings.Fields(desc), " "), words) {
		t.Errorf("the calendar's description %q lacks the abstract's first words %q", desc, words)
	}

	events := frabEvents(decodeFrab(t, getOK(t, h, "/c/"+conf+"/schedule.xml").Body.Bytes()))
	found := false
	for _, ev := range events {
		if ev.Slug == id {
			found = true
			if !strings.Contains(strings.Join(strings.Fields(ev.Abstract), " "), words) {
				t.Errorf("the frab abstract of %s is %q, want the talk's, from %q", id, ev.Abstract, words)
			}
		}
	}
	if !found {
		t.Errorf("no event %s among the %d of %s's schedule.xml", id, len(events), conf)
	}
}
