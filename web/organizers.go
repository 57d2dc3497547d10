package web

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"html/template"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/ingest"
	"github.com/talksearch/talksearch/search"
	"github.com/talksearch/talksearch/search/overlap"
)

// defaultMaxUploadBytes bounds an upload of submissions (all its files):
// a call for papers of a few thousand proposals is a few MiB.
const defaultMaxUploadBytes = 8 << 20

// maxFieldBytes bounds a form field that is not a file.
const maxFieldBytes = 1 << 10

// typeCSV is the export's content type (RFC 4180).
const typeCSV = "text/csv; charset=utf-8"

// errUploadDisabled and errUploadToken are the upload's own refusals.
var (
	errUploadDisabled = errors.New("uploads are disabled: the server has no reload token (serve --reload-token)")
	errUploadToken    = errors.New("wrong or missing token: uploads take the server's reload token")
)

// upload is one POST /overlaps, read whole into memory: the files are
// parsed from memory and dropped with the request, never written anywhere.
type upload struct {
	token, min, format, zone string
	files                    []uploadedFile
}

type uploadedFile struct {
	name string
	data []byte
}

// readUpload reads the multipart form part by part: Request.ParseMultipartForm
// would write files larger than its memory bound to a temporary file, and
// an upload must not be stored. The body is bounded by MaxUploadBytes
// (bounds), so memory is too.
//
// The token is checked as soon as it is read (authorized), and no file is
// read before it: the form sends its token field first, so a client
// without the token costs the reading of a few bytes, not of the body.
func readUpload(r *http.Request, authorized func(token string) error) (*upload, error) {
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, invalidf("the upload must be a multipart/form-data form: %v", err)
	}
	up := &upload{}
	checked := false
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			if !checked {
				return nil, authorized("")
			}
			return up, nil
		}
		if err != nil {
			return nil, uploadReadError(err)
		}
		if part.FormName() == "file" && !checked {
			// Not closed: closing a part reads the rest of it.
			return nil, authorized("") // the token must come before the files
		}
		if err := up.read(part); err != nil {
			return nil, err
		}
		if part.FormName() == "token" && !checked {
			if err := authorized(up.token); err != nil {
				return nil, err
			}
			checked = true
		}
	}
}

func (up *upload) read(part *multipart.Part) error {
	defer part.Close()
	name := part.FormName()
	if name == "file" {
		var buf bytes.Buffer
		if _, err := io.Copy(&buf, part); err != nil {
			return uploadReadError(err)
		}
		if part.FileName() == "" && buf.Len() == 0 {
			return nil // the file input left empty
		}
		up.files = append(up.files, uploadedFile{name: part.FileName(), data: buf.Bytes()})
		return nil
	}
	value, err := io.ReadAll(io.LimitReader(part, maxFieldBytes+1))
	if err != nil {
		return uploadReadError(err)
	}
	if len(value) > maxFieldBytes {
		return invalidf("form field %q is longer than %d bytes", name, maxFieldBytes)
	}
	v := strings.TrimSpace(string(value))
	switch name {
	case "token":
		up.token = v
	case "min":
		up.min = v
	case "format":
		up.format = v
	case "time_zone":
		up.zone = v
	}
	return nil
}

func uploadReadError(err error) error {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return fmt.Errorf("%w: uploads are limited to %s", errTooLarge, byteSize(tooLarge.Limit))
	}
	return invalidf("reading the upload: %v", err)
}

// overlapsUpload is POST /overlaps: the submissions of a call for papers,
// uploaded in any format index/ingest reads (CSV, JSON Lines, pretalx, frab
// XML or JSON, iCalendar), analysed in memory and answered as the report
// page (format=html), or exported as CSV or JSON. It is enabled by the
// reload token: a server that has one takes uploads from whoever knows it
// (a form field), a server without one refuses them (403), so nobody on
// the network can make a public server do the work of an analysis.
func (s *server) overlapsUpload(c *gin.Context) {
	c.Header("Cache-Control", "no-store")
	if s.opts.ReloadToken == "" {
		s.failWith(c, http.StatusForbidden, errUploadDisabled)
		return
	}
	// Wrong tokens are limited per client as on /admin/reload.
	client := c.ClientIP()
	if wait, blocked := s.auth.blocked(client); blocked {
		b := &busyError{msg: "too many failed authentications from your address", retry: wait}
		c.Header("Retry-After", b.retryAfter())
		s.failWith(c, http.StatusTooManyRequests, errors.New(b.msg))
		return
	}
	up, err := readUpload(c.Request, func(token string) error {
		if subtle.ConstantTimeCompare([]byte(token), []byte(s.opts.ReloadToken)) != 1 {
			s.auth.failed(client)
			return errUploadToken
		}
		return nil
	})
	if errors.Is(err, errUploadToken) {
		s.failWith(c, http.StatusUnauthorized, errUploadToken)
		return
	}
	if err != nil {
		s.fail(c, err)
		return
	}
	// One upload is analysed at a time: an analysis that outlives its
	// request (answered at the deadline below) still holds the slot, so
	// abandoned analyses cannot pile up.
	select {
	case s.uploads <- struct{}{}:
	default:
		c.Header("Retry-After", "5")
		s.failWith(c, http.StatusTooManyRequests, errors.New("another upload is being analysed: try again in a few seconds"))
		return
	}
	done := make(chan uploadAnswer, 1)
	go func() {
		// The slot is free before the answer is: the client may send its
		// next upload as soon as it has this one's. A panic of the
		// analysis is the request's 500, as the recovery middleware
		// makes it on the request's own goroutine.
		done <- func() (a uploadAnswer) {
			defer func() {
				<-s.uploads
				if r := recover(); r != nil {
					a = uploadAnswer{err: fmt.Errorf("analysing the upload: panic: %v", r)}
				}
			}()
			return s.analyseUpload(up)
		}()
	}()
	select {
	case a := <-done:
		if a.err != nil {
			s.fail(c, a.err)
			return
		}
		c.Set(ctxHits, a.hits)
		if a.filename != "" {
			c.Header("Content-Disposition", `attachment; filename="`+a.filename+`"`)
		}
		c.Data(a.code, a.contentType, a.body)
	case <-c.Request.Context().Done():
		s.fail(c, fmt.Errorf("analysing the upload: %w", c.Request.Context().Err()))
	}
}

// uploadAnswer is what an analysed upload answers.
type uploadAnswer struct {
	code                  int
	contentType, filename string
	body                  []byte
	hits                  int
	err                   error
}

// analyseUpload reads the uploaded files and makes their report in the
// format asked. Each file is read within Options.MaxParseTime, as --from
// files are; the analysis outlives its request (see the upload slot).
func (s *server) analyseUpload(up *upload) uploadAnswer {
	min, err := parseMinValue(up.min)
	if err != nil {
		return uploadAnswer{err: err}
	}
	opt := ingest.ImportOptions{MaxParseTime: s.opts.MaxParseTime}
	if up.zone != "" {
		if opt.Location, err = time.LoadLocation(up.zone); err != nil {
			return uploadAnswer{err: invalidf("time_zone %q is not an IANA zone name such as Europe/Paris", up.zone)}
		}
	}
	switch up.format {
	case "", "html", "csv", "json":
	default:
		return uploadAnswer{err: invalidf("format %q: want html, csv or json", up.format)}
	}
	if len(up.files) == 0 {
		return uploadAnswer{err: invalidf("choose a file of submissions to upload")}
	}
	var talks []index.Talk
	in := ingest.NewImporter(opt, func(t index.Talk) { talks = append(talks, t) })
	var files []ingest.FileSummary
	for _, f := range up.files {
		sum, err := in.Read(f.name, bytes.NewReader(f.data))
		if err != nil {
			return uploadAnswer{err: invalidf("%v", err)}
		}
		files = append(files, sum)
	}
	dopt := overlap.Options{Min: min}
	if len(talks) < overlap.SmallCall {
		dopt.Background = s.s.Talks() // a small call borrows the served conferences' statistics
	}
	rep := overlap.Detect(talks, dopt)
	rep.Skipped, rep.Files = in.Notes(), files
	a := uploadAnswer{code: http.StatusOK, hits: len(rep.Pairs)}
	if len(talks) == 0 {
		a.code = http.StatusUnprocessableEntity // nothing could be read: the notes say why
	}
	switch up.format {
	case "csv":
		var buf bytes.Buffer
		if err := rep.WriteCSV(&buf); err != nil {
			return uploadAnswer{err: err}
		}
		a.contentType, a.filename, a.body = typeCSV, "overlaps.csv", buf.Bytes()
	case "json":
		body, err := OverlapsJSON(rep)
		if err != nil {
			return uploadAnswer{err: err}
		}
		a.contentType, a.filename, a.body = typeJSON, "overlaps.json", body
	default:
		v, err := s.uploadView(rep, formatMin(min))
		if err != nil {
			return uploadAnswer{err: err}
		}
		body, err := s.renderBytes("overlaps", "layout", v)
		if err != nil {
			return uploadAnswer{err: err}
		}
		a.contentType, a.body = typeHTML, body
	}
	return a
}

// uploadView is the report page of an upload: its talks have no pages of
// their own, so its pairs link nowhere, and the exports are links to the
// report itself (data: URLs), since nothing is kept to export later.
func (s *server) uploadView(rep *overlap.Report, min string) (overlapsPage, error) {
	v := s.overlapsView(min, rep)
	v.Title = "Overlapping submissions: your upload"
	v.Uploaded = true
	v.Files, v.Notes = rep.Files, rep.Skipped
	var csvBuf bytes.Buffer
	if err := rep.WriteCSV(&csvBuf); err != nil {
		return v, err
	}
	js, err := OverlapsJSON(rep)
	if err != nil {
		return v, err
	}
	// Both are base64 of bytes made here: nothing in them can leave the
	// attribute, so they are trusted as URLs.
	v.ExportCSV = template.URL("data:text/csv;charset=utf-8;base64," + base64.StdEncoding.EncodeToString(csvBuf.Bytes()))
	v.ExportJSON = template.URL("data:application/json;base64," + base64.StdEncoding.EncodeToString(js))
	unlink := func(r *talkRef) { r.URL, r.OrganizerURL = "", "" }
	for k := range v.Pairs {
		unlink(&v.Pairs[k].A)
		unlink(&v.Pairs[k].B)
	}
	for k := range v.Clusters {
		for j := range v.Clusters[k].Talks {
			unlink(&v.Clusters[k].Talks[j])
		}
	}
	for k := range v.Clashes {
		unlink(&v.Clashes[k].A)
		unlink(&v.Clashes[k].B)
	}
	for k := range v.Conflicts {
		unlink(&v.Conflicts[k].A)
		unlink(&v.Conflicts[k].B)
	}
	for k := range v.Resubmissions {
		unlink(&v.Resubmissions[k].Earlier)
		unlink(&v.Resubmissions[k].Later)
	}
	for k := range v.Recurring {
		v.Recurring[k].URL = ""
	}
	return v, nil
}

// failWith answers a refusal of the upload with its own status, in the
// form the route speaks (a page).
func (s *server) failWith(c *gin.Context, code int, err error) {
	c.Abort()
	s.render(c, code, "error", errorPage{page: s.newPage(http.StatusText(code)), Status: code, Message: err.Error()})
}

// apiOverlapsCSV is GET /api/overlaps.csv: the served corpus's report as
// CSV (overlap.Report.WriteCSV).
func (s *server) apiOverlapsCSV(c *gin.Context) {
	min, err := parseMin(c.Request.URL.Query())
	if err != nil {
		s.fail(c, err)
		return
	}
	s.answerGzip(c, "api overlaps csv "+formatMin(min), typeCSV, func(ctx context.Context) ([]byte, int, error) {
		rep, err := s.s.Overlaps(ctx, min)
		if err != nil {
			return nil, 0, err
		}
		var buf bytes.Buffer
		err = rep.WriteCSV(&buf)
		return buf.Bytes(), len(rep.Pairs), err
	})
}

// overlapTalk is one talk's organizer view, from the report at the
// default threshold (the one that keeps the views).
func (s *server) overlapTalk(ctx context.Context, id string) (*overlap.TalkOverlaps, error) {
	rep, err := s.s.Overlaps(ctx, 0)
	if err != nil {
		return nil, err
	}
	v, ok := rep.Talk(id)
	if !ok {
		return nil, fmt.Errorf("%w: no talk compared for overlaps has the id %q", search.ErrNotFound, id)
	}
	return v, nil
}

// apiOverlapTalk is GET /api/overlaps/talks/:id.
func (s *server) apiOverlapTalk(c *gin.Context) {
	id, err := talkID(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	s.answerGzip(c, "api overlap talk "+id, typeJSON, func(ctx context.Context) ([]byte, int, error) {
		v, err := s.overlapTalk(ctx, id)
		if err != nil {
			return nil, 0, err
		}
		body, err := encodeJSON(NewTalkOverlapsDoc(v))
		return body, len(v.Similar), err
	})
}

// overlapTalkPage is GET /overlaps/talks/:id: the similar submissions
// (other tracks, other years) with the explanation pairs carry, the
// talk's other versions and its conflicts.
func (s *server) overlapTalkPage(c *gin.Context) {
	id, err := talkID(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	s.answerGzip(c, "overlap talk "+id, typeHTML, func(ctx context.Context) ([]byte, int, error) {
		v, err := s.overlapTalk(ctx, id)
		if err != nil {
			return nil, 0, err
		}
		page := overlapTalkPage{page: s.newPage("Organizer view: " + v.Title), Talk: v, URL: "/talks/" + v.ID}
		for _, p := range v.Similar {
			pv := s.pairView(p)
			// The card's own talk is known: show the other one first.
			if p.B == id {
				pv.A, pv.B = pv.B, pv.A
				pv.PassagesA, pv.PassagesB = pv.PassagesB, pv.PassagesA
			}
			page.Similar = append(page.Similar, pv)
		}
		for _, r := range v.Versions {
			page.Versions = append(page.Versions, newResubmissionView(r))
		}
		for _, cf := range v.Conflicts {
			page.Conflicts = append(page.Conflicts, s.conflictView(cf))
		}
		body, err := s.renderBytes("overlap_talk", "layout", page)
		return body, len(v.Similar), err
	})
}

// overlapTalkPage is the view of GET /overlaps/talks/:id.
type overlapTalkPage struct {
	page
	Talk      *overlap.TalkOverlaps
	URL       string
	Similar   []pairView
	Versions  []resubmissionView
	Conflicts []conflictView
}

// byteSize is n for people: "8 MiB", or "1024 bytes" below a MiB.
func byteSize(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
