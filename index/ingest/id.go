package ingest

import (
	"crypto/sha1"
	"encoding/hex"
	"strings"
	"time"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/analysis"
)

// Slug limits: enough words to recognise the talk in a URL, short enough to
// keep the URL readable.
const (
	slugMaxWords = 6
	slugMaxLen   = 50
)

// TalkID returns the stable, URL-safe id of a talk: a slug of its title and
// the first six hex digits of the SHA-1 of its identity, for example
// "keynote-pytorch-cto-3f2a1c". The identity must depend on content only,
// never on file order: see ScheduledIdentity and AbstractIdentity.
func TalkID(title, identity string) string {
	sum := sha1.Sum([]byte(identity))
	h := hex.EncodeToString(sum[:])[:6]
	if s := Slug(title); s != "" {
		return s + "-" + h
	}
	return "talk-" + h
}

// ScheduledIdentity identifies a scheduled session by its folded title and
// start time, so the two "Coffee Break"s of the day get different ids.
func ScheduledIdentity(title string, start *time.Time) string {
	id := strings.Join(analysis.MatchWords(title), " ")
	if start != nil {
		id += "|" + start.Format(time.RFC3339)
	}
	return id
}

// AbstractIdentity identifies a talk known only from the abstract dumps by
// the folded words of its first paragraph: the same text in any dump, with
// any quotes, dashes or line breaks, gives the same id.
func AbstractIdentity(firstParagraph string) string {
	return strings.Join(analysis.MatchWords(firstParagraph), " ")
}

// Slug lower-cases the first words of s to ASCII [a-z0-9] joined by "-".
// Accented letters lose their accent; other characters separate words.
func Slug(s string) string {
	var b strings.Builder
	words := 0
	for _, w := range analysis.MatchWords(s) {
		w = asciiOnly(w)
		if w == "" {
			continue
		}
		if words == slugMaxWords || b.Len()+1+len(w) > slugMaxLen {
			break
		}
		if b.Len() > 0 {
			b.WriteByte('-')
		}
		b.WriteString(w)
		words++
	}
	return b.String()
}

func asciiOnly(w string) string {
	return strings.Map(func(r rune) rune {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			return r
		}
		return -1
	}, w)
}

// ConferenceNamed is the conference of that name, its id the slug of the
// whole name ("PyTorch Conference Europe 2026" is
// "pytorch-conference-europe-2026").
func ConferenceNamed(name string) index.Conference {
	var words []string
	for _, w := range analysis.MatchWords(name) {
		if w = asciiOnly(w); w != "" {
			words = append(words, w)
		}
	}
	return index.Conference{ID: strings.Join(words, "-"), Name: name}
}
