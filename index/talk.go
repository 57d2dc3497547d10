package index

import "time"

// Kind says what sort of session a talk is. It decides, among other things,
// which talks can be "related" (never breaks) and how the page labels them.
type Kind string

const (
	KindKeynote   Kind = "keynote"   // "Keynote: …" and "Sponsored Keynote: …"
	KindTalk      Kind = "talk"      // a regular session (also abstract-only talks)
	KindLightning Kind = "lightning" // "Lightning Talk: …"
	KindBOF       Kind = "bof"       // "Birds of A Feather: …"
	KindMeet      Kind = "meet"      // "Meet the … Maintainers" (track Meet the Developers)
	KindPoster    Kind = "poster"    // poster presentations
	KindSponsor   Kind = "sponsor"   // "Sponsor Activity - …", "Sponsored Session: …"
	KindBreak     Kind = "break"     // coffee, lunch, registration, expo
)

// Speaker is one person presenting a talk.
type Speaker struct {
	Name        string `json:"name"`
	Affiliation string `json:"affiliation,omitempty"`
}

// Talk is the one model of a conference session that every package shares:
// parsing fills it, dedup merges it, the index stores it, search returns it
// and the web shows it. A field the data does not state stays empty (nil
// times, empty strings): nothing is invented.
//
// Its JSON form is the data contract of `talksearch export`.
type Talk struct {
	// ID is stable across runs and URL-safe: a slug of the title plus a
	// short hash of the talk's identifying content (see TalkID).
	ID    string `json:"id"`
	Title string `json:"title"`
	// Speakers in the order the schedule lists them.
	Speakers []Speaker `json:"speakers,omitempty"`
	// Abstract keeps paragraphs separated by a blank line ("\n\n"); line
	// breaks inside a paragraph (lists) are kept as "\n".
	Abstract string     `json:"abstract,omitempty"`
	Track    string     `json:"track,omitempty"`
	Level    string     `json:"level,omitempty"`
	Room     string     `json:"room,omitempty"`
	Start    *time.Time `json:"start,omitempty"`
	End      *time.Time `json:"end,omitempty"`
	Kind     Kind       `json:"kind"`
	// Scheduled is true for talks found in the schedule dump, false for
	// talks known only from the abstract dumps.
	Scheduled bool `json:"scheduled"`
	// Sources are the seed file names the talk was found in, sorted.
	Sources []string `json:"sources"`
}
