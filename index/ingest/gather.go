package ingest

import (
	"fmt"
	"strings"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/analysis"
)

// repeatedIDs gathers the ids one file gives to more than one event, so
// that each repeated id is one warning however often it repeats (a
// calendar giving 67 events one UID says so once, not 66 times). The
// warning sits at the line of the first repeat and names the line of the
// first event.
type repeatedIDs struct {
	file  string
	what  string // "event id", "id": how the warning names the id
	drop  string // why a repeat is dropped: "the same title and start"
	ids   map[string]*idRepeat
	order []string
}

type idRepeat struct {
	first, second, last int // lines: the first event, its first and last repeat
	repeats, dropped    int
}

func newRepeatedIDs(file, what, drop string) *repeatedIDs {
	return &repeatedIDs{file: file, what: what, drop: drop, ids: map[string]*idRepeat{}}
}

// add records that the event at line repeats id, first read at line
// first; dropped says it was dropped rather than kept as a talk.
func (r *repeatedIDs) add(id string, first, line int, dropped bool) {
	rep := r.ids[id]
	if rep == nil {
		rep = &idRepeat{first: first, second: line}
		r.ids[id] = rep
		r.order = append(r.order, id)
	}
	rep.repeats++
	rep.last = line
	if dropped {
		rep.dropped++
	}
}

// warnings are the warnings, one per repeated id, in the order the ids
// were first repeated.
func (r *repeatedIDs) warnings() []Warning {
	var out []Warning
	for _, id := range r.order {
		rep := r.ids[id]
		msg := fmt.Sprintf("%s %q of line %d repeated at line %d", r.what, id, rep.first, rep.second)
		switch {
		case rep.repeats == 2:
			msg = fmt.Sprintf("%s %q of line %d repeated at lines %d and %d", r.what, id, rep.first, rep.second, rep.last)
		case rep.repeats > 2:
			msg += fmt.Sprintf(" and %d more times, the last at line %d", rep.repeats-1, rep.last)
		}
		kept := rep.repeats - rep.dropped
		switch {
		case kept == 0 && r.drop == "":
			msg += ": dropped"
		case kept == 0:
			msg += ": " + r.drop + ", dropped"
		case rep.dropped == 0 && kept == 1:
			msg += ": kept as a separate talk"
		case rep.dropped == 0:
			msg += ": each kept as a separate talk"
		default:
			msg += fmt.Sprintf(": %d dropped (%s), %d kept as separate talks", rep.dropped, r.drop, kept)
			if kept == 1 {
				msg = strings.TrimSuffix(msg, "separate talks") + "a separate talk"
			}
		}
		out = append(out, Warning{File: r.file, Line: rep.second, Msg: msg})
	}
	return out
}

// gathered is what load makes of every talk a structured reader returns,
// whatever its format: several languages in one value become a list, a
// session that names no type of its own but a meal or a break as its
// whole title is a break, and a title marked "CANCELLED" is a cancelled
// talk's without the mark (its id, made from the title as read, stays).
func gathered(format string, t *index.Talk) {
	t.Language = Languages(t.Language)
	markCancelled(t)
	// JSON Lines state talksearch's own kind: taken as written.
	if format != (jsonLines{}).Name() && t.Kind == index.KindTalk && breakTitle(t.Title) {
		t.Kind = index.KindBreak
	}
}

// Languages is a language value as talksearch keeps it: the tags a source
// lists in one value ("de, en", "de/en", "DE & EN", "de und en") separated
// by ", " in the order given, each once; a single tag is unchanged.
// index.Talk.Languages splits it again.
func Languages(v string) string {
	fields := strings.Fields(v)
	for i, f := range fields {
		if strings.EqualFold(f, "and") || strings.EqualFold(f, "und") {
			fields[i] = ","
		}
	}
	parts := strings.FieldsFunc(strings.Join(fields, " "), func(r rune) bool { return strings.ContainsRune(languageSeparators, r) })
	var out []string
	seen := map[string]bool{}
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if k := strings.ToLower(p); p != "" && !seen[k] {
			seen[k] = true
			out = append(out, p)
		}
	}
	return strings.Join(out, ", ")
}

// languageSeparators separate the languages of one value.
const languageSeparators = ",/;&+|"

// breakTitle reports whether a title names a meal or a break and nothing
// else ("Lunch", "Coffee Break", "Registration / Breakfast", "Afternoon
// tea"): the words KindOf reads as a break in a type and the other meals,
// with a few words that qualify them. "Breaking the build" or "Lunch and learn: Rust" are talks.
func breakTitle(title string) bool {
	words := analysis.MatchWords(title)
	meal := false
	for _, w := range words {
		switch {
		case KindOf(w) == index.KindBreak || meals[w]:
			meal = true
		case breakQualifiers[w]:
		default:
			return false
		}
	}
	return meal
}

// meals are the meals KindOf does not know as types (it knows breakfast,
// lunch, coffee and breaks).
var meals = map[string]bool{"supper": true, "dinner": true, "brunch": true, "tea": true, "meal": true, "meals": true}

// breakQualifiers may stand beside a meal in a break's title.
var breakQualifiers = map[string]bool{
	"and": true, "morning": true, "afternoon": true, "evening": true, "registration": true,
	"tea": true, "snacks": true, "snack": true, "refreshments": true, "drinks": true, "the": true,
	"day": true, "1": true, "2": true, "3": true, "4": true, "5": true, "short": true, "long": true,
}

// readFormat is f.Read with what every talk of every format gets
// (gathered).
func readFormat(f Format, file string, data []byte, opt Options) ([]index.Talk, []Warning, error) {
	opt.markdown = newMarkdownBudget()
	talks, warns, err := f.Read(file, data, opt)
	warns = append(warns, opt.markdown.warnings(file)...)
	for i := range talks {
		gathered(f.Name(), &talks[i])
	}
	return talks, warns, err
}
