package web

import (
	"bytes"
	"context"
	"encoding/base64"
	"html/template"
	"math"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/talksearch/talksearch/index/ingest"
	"github.com/talksearch/talksearch/search/overlap"
)

// maxPairsShown bounds the organizer page; the API has them all.
const maxPairsShown = 100

// overlapsPage is the view of GET /overlaps and of an upload's report.
type overlapsPage struct {
	page
	Min        string  // the threshold as asked, for the form
	DefaultMin float64 // what an empty threshold means
	Floor      float64 // the lowest threshold taken
	Clusters   []clusterView
	Pairs      []pairView
	PairsTotal int
	// Totals are the report's counts, which the lists may show fewer of.
	Totals        overlap.Totals
	Clashes       []clashView
	Conflicts     []conflictView // speaker and track conflicts (the similar ones are Clashes)
	Resubmissions []resubmissionView
	Recurring     []recurringView
	Merged        []overlap.Merged
	// UploadEnabled shows the upload form (the server has a reload
	// token); Formats lists what it reads.
	UploadEnabled bool
	MaxUpload     string
	Formats       string
	DefaultZone   string
	// Uploaded marks the report of an upload: Files and Notes say what
	// became of its rows, ExportCSV and ExportJSON are the report itself.
	Uploaded   bool
	Files      []overlap.Summary
	Notes      []overlap.RowError
	ExportCSV  template.URL
	ExportJSON template.URL
}

type talkRef struct {
	URL   string
	Title string
	Room  string
	// OrganizerURL is the talk's organizer view; empty for uploads.
	OrganizerURL string
	Speakers     []string
	When         string
	Conference   string
}

type clusterView struct {
	Label string
	Talks []talkRef
}

type pairView struct {
	A, B           talkRef
	Percent        int
	Kind           string
	SharedTerms    []string
	SharedSpeakers []string
	PassagesA      []template.HTML
	PassagesB      []template.HTML
	// Decision is the committee's, from its decisions file; DecideNo and
	// DecideYes download that file's row for this pair (data: URLs).
	Decision, Note      string
	DecideNo, DecideYes template.URL
}

type conflictView struct {
	A, B    talkRef
	Kind    string // for people: "Speaker in two rooms", …
	Subject string // the speaker or the track
	When    string
}

type resubmissionView struct {
	Earlier, Later talkRef
	Percent        int
	Evidence       string
	SharedSpeakers []string
}

// recurringView is one session held at every edition, on one line.
type recurringView struct {
	Title    string
	URL      string // the latest edition's talk; empty for uploads
	Editions string // "fosdem-2024, fosdem-2025"
	Evidence string
}

type clashView struct {
	A, B    talkRef
	When    string // the span both talks share
	Percent int
}

func (s *server) overlapsPage(c *gin.Context) {
	min, err := parseMin(c.Request.URL.Query())
	if err != nil {
		s.fail(c, err)
		return
	}
	s.answerGzip(c, "overlaps "+formatMin(min), typeHTML, func(ctx context.Context) ([]byte, int, error) {
		rep, err := s.s.Overlaps(ctx, min)
		if err != nil {
			return nil, 0, err
		}
		body, err := s.renderBytes("overlaps", "layout", s.overlapsView(formatMin(min), rep))
		return body, len(rep.Pairs), err
	})
}

func (s *server) overlapsView(min string, rep *overlap.Report) overlapsPage {
	v := overlapsPage{
		page:       s.newPage("Overlapping talks"),
		Min:        min,
		DefaultMin: overlap.DefaultMin,
		Floor:      overlap.Floor,
		PairsTotal: rep.Totals().Pairs,
		Totals:     rep.Totals(),
		Merged:     rep.Merged,

		UploadEnabled: s.opts.ReloadToken != "",
		MaxUpload:     byteSize(s.opts.MaxUploadBytes),
		Formats:       strings.Join(ingest.FormatNames(), ", "),
		DefaultZone:   ingest.DefaultZone,
	}
	for _, cl := range rep.Clusters {
		cv := clusterView{Label: cl.Label}
		for i, id := range cl.IDs {
			title := ""
			if i < len(cl.Titles) {
				title = cl.Titles[i]
			}
			tr := ref(id, title, "")
			in := rep.Info(id)
			tr.Conference = edition(in.Conference, in.Year)
			cv.Talks = append(cv.Talks, tr)
		}
		v.Clusters = append(v.Clusters, cv)
	}
	for i, p := range rep.Pairs {
		if i == maxPairsShown {
			break
		}
		v.Pairs = append(v.Pairs, s.pairView(p))
	}
	for _, cf := range rep.Conflicts {
		if cf.Kind != overlap.ConflictSimilar {
			v.Conflicts = append(v.Conflicts, s.conflictView(cf))
		}
	}
	for i, r := range rep.Resubmissions {
		if i == maxPairsShown {
			break
		}
		v.Resubmissions = append(v.Resubmissions, newResubmissionView(r))
	}
	for _, r := range rep.Recurring {
		eds := make([]string, len(r.IDs))
		for k := range r.IDs {
			eds[k] = edition(r.Conferences[k], r.Years[k])
		}
		v.Recurring = append(v.Recurring, recurringView{Title: r.Title, URL: "/talks/" + r.IDs[len(r.IDs)-1],
			Editions: strings.Join(eds, ", "), Evidence: strings.Join(r.Evidence, ", ")})
	}
	for _, cl := range rep.Clashes {
		cv := clashView{A: ref(cl.A, cl.TitleA, cl.RoomA), B: ref(cl.B, cl.TitleB, cl.RoomB), Percent: percent(cl.Score)}
		if !cl.Start.IsZero() {
			start, end := cl.Start, cl.End
			cv.When = formatWhen(&start, &end, s.opts.Location, s.catalogNow().dates())
		}
		v.Clashes = append(v.Clashes, cv)
	}
	return v
}

// ref links a talk of a report; a talk without a title shows its id.
func ref(id, title, room string) talkRef {
	if title == "" {
		title = id
	}
	return talkRef{URL: "/talks/" + id, Title: title, Room: room, OrganizerURL: "/overlaps/talks/" + id}
}

// pairView is a pair card: both talks with their speakers, slots and rooms,
// the shared speakers and terms, and the passages.
func (s *server) pairView(p overlap.Pair) pairView {
	pv := pairView{
		A:              ref(p.A, p.TitleA, p.RoomA),
		B:              ref(p.B, p.TitleB, p.RoomB),
		Percent:        percent(p.Score),
		Kind:           pairKindLabel(p.Kind),
		SharedTerms:    p.SharedTerms,
		SharedSpeakers: p.SharedSpeakers,
	}
	pv.A.Speakers, pv.B.Speakers = p.SpeakersA, p.SpeakersB
	pv.A.When, pv.B.When = formatWhen(p.StartA, nil, s.opts.Location, s.catalogNow().dates()), formatWhen(p.StartB, nil, s.opts.Location, s.catalogNow().dates())
	if p.ConferenceA != p.ConferenceB || p.YearA != p.YearB {
		pv.A.Conference, pv.B.Conference = edition(p.ConferenceA, p.YearA), edition(p.ConferenceB, p.YearB)
	}
	pv.Decision, pv.Note = p.Decision, p.Note
	pv.DecideNo = decisionURL(overlap.Decision{A: p.A, B: p.B, Decision: overlap.DecisionNotOverlap})
	pv.DecideYes = decisionURL(overlap.Decision{A: p.A, B: p.B, Decision: overlap.DecisionConfirmed})
	for _, h := range p.Passages.A {
		pv.PassagesA = append(pv.PassagesA, safeHighlight(h))
	}
	for _, h := range p.Passages.B {
		pv.PassagesB = append(pv.PassagesB, safeHighlight(h))
	}
	return pv
}

// decisionURL is a decisions file of one row, as a data: URL to download:
// the committee keeps its file (overlaps --decisions) in its own
// repository, so the page writes nothing on the server.
func decisionURL(d overlap.Decision) template.URL {
	var buf bytes.Buffer
	if err := overlap.WriteDecision(&buf, d); err != nil {
		return ""
	}
	// Base64 of bytes made here: nothing in it can leave the attribute.
	return template.URL("data:text/csv;charset=utf-8;base64," + base64.StdEncoding.EncodeToString(buf.Bytes()))
}

func (s *server) conflictView(c overlap.Conflict) conflictView {
	start, end := c.Start, c.End
	v := conflictView{A: ref(c.A, c.TitleA, c.RoomA), B: ref(c.B, c.TitleB, c.RoomB),
		When: formatWhen(&start, &end, s.opts.Location, s.catalogNow().dates())}
	switch c.Kind {
	case overlap.ConflictSpeaker:
		v.Kind, v.Subject = "Speaker double-booked", c.Speaker
	case overlap.ConflictTrack:
		v.Kind, v.Subject = "Track against itself", c.Track
	default:
		v.Kind = "Similar talks in parallel"
	}
	return v
}

func newResubmissionView(r overlap.Resubmission) resubmissionView {
	v := resubmissionView{Earlier: ref(r.Earlier, r.TitleEarlier, ""), Later: ref(r.Later, r.TitleLater, ""),
		Percent: percent(r.Score), Evidence: strings.Join(r.Evidence, ", "), SharedSpeakers: r.SharedSpeakers}
	v.Earlier.Conference, v.Later.Conference = edition(r.ConferenceEarlier, r.YearEarlier), edition(r.ConferenceLater, r.YearLater)
	return v
}

// edition names a talk's conference and year for people: the id, and the
// year when the id does not already say it ("fosdem-2024", "pycon 2025").
func edition(conf string, year int) string {
	y := strconv.Itoa(year)
	switch {
	case year == 0:
		return conf
	case conf == "":
		return y
	case strings.Contains(conf, y):
		return conf
	}
	return conf + " " + y
}

func percent(score float64) int { return int(math.Round(score * 100)) }

// pairKindLabel names a kind of overlap for people.
func pairKindLabel(kind string) string {
	switch kind {
	case overlap.KindDuplicate:
		return "Duplicate"
	case overlap.KindNearDuplicate:
		return "Near-duplicate"
	case overlap.KindTopical:
		return "Same topic"
	case overlap.KindSameSpeaker:
		return "Same speaker, similar subject"
	case overlap.KindResubmission:
		return "Resubmission (earlier edition)"
	default:
		return kind
	}
}
