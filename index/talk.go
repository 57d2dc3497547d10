package index

import (
	"slices"
	"strings"
	"time"
)

// Kind says what sort of session a talk is, on one documented set whatever
// the source calls it (ingest maps FOSDEM's types, pretalx submission types
// and Sched title prefixes onto it). It decides, among other things, which
// talks can be "related" (never breaks) and how the page labels them.
type Kind string

const (
	KindKeynote   Kind = "keynote"   // keynotes, also sponsored ones
	KindTalk      Kind = "talk"      // a regular session (also abstract-only talks)
	KindLightning Kind = "lightning" // lightning talks
	KindBOF       Kind = "bof"       // birds of a feather, meetups
	KindWorkshop  Kind = "workshop"  // workshops, tutorials, hands-on labs
	KindPanel     Kind = "panel"     // panels and fireside chats
	KindMeet      Kind = "meet"      // "Meet the … Maintainers" (track Meet the Developers)
	KindPoster    Kind = "poster"    // poster presentations
	KindSponsor   Kind = "sponsor"   // "Sponsor Activity - …", "Sponsored Session: …"
	KindBreak     Kind = "break"     // coffee, lunch, registration, expo
	KindOther     Kind = "other"     // a type the source names that fits none of these
)

// Kinds is the documented set, in the order pages list them.
var Kinds = []Kind{KindKeynote, KindTalk, KindLightning, KindWorkshop, KindPanel, KindBOF,
	KindMeet, KindPoster, KindSponsor, KindBreak, KindOther}

// Speaker is one person presenting a talk.
type Speaker struct {
	Name        string `json:"name"`
	Affiliation string `json:"affiliation,omitempty"`
	// SourceID is the source's own id of the person (pretalx speaker code,
	// frab person id), where it has one: the same id on two talks is the
	// same person whatever the spelling of the name.
	SourceID string `json:"source_id,omitempty"`
}

// Conference is the event a talk belongs to. ID is URL-safe and unique
// among the conferences loaded ("fosdem-2025"); Name is for people.
type Conference struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Talk is the one model of a conference session that every package shares:
// parsing fills it, dedup merges it, the index stores it, search returns it
// and the web shows it. A field the data does not state stays empty (nil
// times, empty strings): nothing is invented.
//
// Its JSON form is the data contract of `talksearch export`, which
// `talksearch index --seeds FILE.jsonl` reads back unchanged.
type Talk struct {
	// ID is stable across runs, URL-safe and unique across conferences: a
	// slug of the title plus a short hash of the talk's identity (see
	// ingest.TalkID).
	ID         string     `json:"id"`
	Conference Conference `json:"conference"`
	// SourceID is the source's own id of the session (frab event id,
	// pretalx code, iCalendar UID); empty for the Sched text dumps.
	SourceID string `json:"source_id,omitempty"`
	Title    string `json:"title"`
	// Speakers in the order the schedule lists them.
	Speakers []Speaker `json:"speakers,omitempty"`
	// Abstract keeps paragraphs separated by a blank line ("\n\n"); line
	// breaks inside a paragraph (lists) are kept as "\n". Description is
	// the longer text some sources keep beside it, in the same form.
	Abstract    string `json:"abstract,omitempty"`
	Description string `json:"description,omitempty"`
	Track       string `json:"track,omitempty"`
	Level       string `json:"level,omitempty"`
	Room        string `json:"room,omitempty"`
	// Language is the talk's language as the source states it (a BCP 47
	// tag such as "en" or "de"); a talk in several has them all, separated
	// by ", " ("de, en"): see Languages.
	Language string `json:"language,omitempty"`
	// URL is the talk's page at the source.
	URL string `json:"url,omitempty"`
	// Start and End carry the conference's own zone (TimeZone), so their
	// JSON form is RFC 3339 with the local offset.
	Start *time.Time `json:"start,omitempty"`
	End   *time.Time `json:"end,omitempty"`
	// TimeZone is the IANA name of the conference's zone
	// ("Europe/Brussels") where the source names one.
	TimeZone string `json:"time_zone,omitempty"`
	Kind     Kind   `json:"kind"`
	// Scheduled is true for talks with a slot in a schedule, false for
	// talks known only from abstract dumps or unscheduled submissions.
	Scheduled bool `json:"scheduled"`
	// Cancelled is true for a talk the source marks as not taking place
	// (a cancelled state, or a "CANCELLED" title prefix, which ingest
	// takes off the title).
	Cancelled bool `json:"cancelled,omitempty"`
	// Links are the talk's recordings, slides and other links, recordings
	// first (see AddLinks), each URL once.
	Links []Link `json:"links,omitempty"`
	// Sources are the seed file names the talk was found in, sorted. A
	// JSON Lines row states its own (an export reads back as written).
	Sources []string `json:"sources"`
	// ReadFrom are the seed files ingest read the talk from, sorted: what
	// the data says never enters it, so it is what a check of lost files
	// compares. It is no part of any format read or written.
	ReadFrom []string `json:"-"`
}

// LinkKind says what a link of a talk leads to, on one set whatever the
// source calls it.
type LinkKind string

const (
	LinkRecording LinkKind = "recording" // a video or audio recording, or its subtitles
	LinkSlides    LinkKind = "slides"    // the slides shown
	LinkLive      LinkKind = "live"      // the live stream
	LinkOther     LinkKind = "link"      // anything else: a project, a paper, a chat room
)

// LinkKinds is the set, in the order a talk lists its links.
var LinkKinds = []LinkKind{LinkRecording, LinkSlides, LinkLive, LinkOther}

// Link is one recording, slide deck or other link of a talk. URL is as the
// source gives it, resolved against the talk's page where it was relative:
// it may still be no web address, so a page or a file written shows it as
// a link only when it is an absolute http(s) URL.
type Link struct {
	Kind  LinkKind `json:"kind"`
	Title string   `json:"title,omitempty"`
	URL   string   `json:"url"`
	// MIMEType is the media type where the source states one.
	MIMEType string `json:"mime_type,omitempty"`
}

// AddLinks adds the links whose URL the talk does not have yet, keeping
// the links ordered by kind (LinkKinds) and, within a kind, as given: two
// records of one talk keep the union of their links, and a page lists
// recordings first.
func (t *Talk) AddLinks(links ...Link) {
	for _, l := range links {
		if l.URL == "" || slices.ContainsFunc(t.Links, func(k Link) bool { return k.URL == l.URL }) {
			continue
		}
		t.Links = append(t.Links, l)
	}
	slices.SortStableFunc(t.Links, func(a, b Link) int { return linkRank(a.Kind) - linkRank(b.Kind) })
}

// linkRank is the place of a kind in LinkKinds; an unknown kind goes last.
func linkRank(k LinkKind) int {
	if i := slices.Index(LinkKinds, k); i >= 0 {
		return i
	}
	return len(LinkKinds)
}

// Languages are the talk's languages, each a value of its own (a search
// facet counts a talk in "de, en" under de and under en).
func (t *Talk) Languages() []string {
	if t.Language == "" {
		return nil
	}
	return strings.Split(t.Language, ", ")
}

// DescriptionText is the talk's description where it adds to the
// abstract: empty when it repeats the abstract (a source that copies one
// into the other, or submissions whose abstract is their description), so
// that the same words are neither indexed nor shown twice.
func (t *Talk) DescriptionText() string {
	if strings.TrimSpace(t.Description) == strings.TrimSpace(t.Abstract) {
		return ""
	}
	return t.Description
}
