package ingest

import (
	"mime"
	"net/url"
	"regexp"
	"strings"

	"github.com/talksearch/talksearch/index"
)

// sourceLink is a link as a source states it: its address, its text, and
// what the source calls it (frab's attachment type, a field's name), if
// anything.
type sourceLink struct {
	href, title, kind, mime string
}

// links makes the source's links the talk's (index.Talk.AddLinks): each
// address trimmed and, where relative, resolved against the talk's page
// (frab writes attachments as paths on its own host), its kind read from
// what the source calls it, else from its text. A link without an address
// is none; one written without its scheme ("www.example.org", as frab
// editors do) is an http address.
func links(t *index.Talk, ls []sourceLink) {
	base, _ := url.Parse(t.URL)
	if base != nil && (base.Scheme != "http" && base.Scheme != "https" || base.Host == "") {
		base = nil
	}
	for _, l := range ls {
		href := strings.TrimSpace(l.href)
		if href == "" {
			continue
		}
		if len(href) > 4 && strings.EqualFold(href[:4], "www.") {
			href = "http://" + href
		}
		if u, err := url.Parse(href); err == nil && !u.IsAbs() && base != nil {
			href = base.ResolveReference(u).String()
		}
		// A media type is kept as its type/subtype only, or not at all.
		mt, _, err := mime.ParseMediaType(l.mime)
		if err != nil {
			mt = ""
		}
		title := cleanLine(l.title)
		t.AddLinks(index.Link{Kind: linkKind(l.kind, title), Title: title, URL: href, MIMEType: mt})
	}
}

// linkKind is the kind of a link: what the source calls it where that is
// a kind (frab attachments are typed slides, video, audio, paper, other),
// else what its text says. FOSDEM titles its recordings "Video recording
// (mp4)", "FOSDEM 2016 Video (webm)", "Video (XVID)" and its slides
// "Slides (PDF)", "Talk slides"; a title that only mentions a video ("The
// Dynabook (video, 1986)") is a link to something else.
func linkKind(kind, title string) index.LinkKind {
	switch strings.ToLower(strings.TrimSpace(kind)) {
	case "slides", "slide":
		return index.LinkSlides
	case "video", "audio", "recording":
		return index.LinkRecording
	case "live", "stream", "livestream":
		return index.LinkLive
	}
	t := strings.ToLower(title)
	switch {
	case recordingTitle.MatchString(t):
		return index.LinkRecording
	case liveTitle.MatchString(t):
		return index.LinkLive
	case slidesTitle.MatchString(t):
		return index.LinkSlides
	}
	return index.LinkOther
}

var (
	recordingTitle = regexp.MustCompile(`^(video|audio|recording)\b|\b(video|audio) recording\b|\bvideo \(`)
	liveTitle      = regexp.MustCompile(`\blive ?stream\b`)
	slidesTitle    = regexp.MustCompile(`\bslides\b|\bslide deck\b`)
)

// cancelledPrefix is a title's mark of a cancelled talk, as FOSDEM's
// devrooms write it: "CANCELLED Usability made simple", "CANCELLED:
// Cockpit", "[CANCELED] The state of …", "(CANCELLED) Funding …",
// "CANCELLED - Community …". The word alone is a mark in capitals only;
// in brackets or before a colon or a dash it is one in any case.
// "Cancelling POSIX syscalls" and "CANCELLATION Strategy" are titles.
var (
	cancelledMarked = regexp.MustCompile(`(?i)^\s*(?:[\[(]\s*cancell?ed\s*[\])]|cancell?ed\s*[:\-–—])\s*[:\-–—]?\s*`)
	cancelledCaps   = regexp.MustCompile(`^\s*CANCELL?ED\s+`)
)

// CancelledTitle reports whether title opens with the mark of a cancelled
// talk, and returns it without the mark (the page shows a badge instead).
// A title that is the mark alone stays as it is.
func CancelledTitle(title string) (string, bool) {
	for _, re := range []*regexp.Regexp{cancelledMarked, cancelledCaps} {
		if loc := re.FindStringIndex(title); loc != nil && strings.TrimSpace(title[loc[1]:]) != "" {
			return strings.TrimSpace(title[loc[1]:]), true
		}
	}
	return title, false
}

// markCancelled takes the mark off a title marked cancelled and marks the
// talk instead.
func markCancelled(t *index.Talk) {
	if title, ok := CancelledTitle(t.Title); ok {
		t.Title, t.Cancelled = title, true
	}
}

// cancelledStates are the states of a session that was on the programme
// and will not take place (pretalx "canceled", frab and Sessionize
// spellings alike). A withdrawn or rejected submission is no session at
// all: the readers that know them leave them out.
var cancelledStates = map[string]bool{"canceled": true, "cancelled": true}

func cancelledState(state string) bool {
	return cancelledStates[strings.ToLower(strings.TrimSpace(state))]
}
