package web

import (
	"bytes"
	"encoding/base64"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rs/zerolog"

	"github.com/talksearch/talksearch/search/overlap"
)

const testToken = "s3cret-token"

// uploadForm is a multipart body with the fields and files given (name →
// content), as the organizer page's form sends it.
func uploadForm(t testing.TB, fields map[string]string, files map[string][]byte) (*bytes.Buffer, string) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for k, v := range fields {
		if err := mw.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	for name, data := range files {
		w, err := mw.CreateFormFile("file", name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	mw.Close()
	return &body, mw.FormDataContentType()
}

func postUpload(t testing.TB, h http.Handler, fields map[string]string, files map[string][]byte) *httptest.ResponseRecorder {
	t.Helper()
	body, ct := uploadForm(t, fields, files)
	req := httptest.NewRequest(http.MethodPost, "/overlaps", body)
	req.Header.Set("Content-Type", ct)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func uploadHandler(t testing.TB, opts Options) http.Handler {
	t.Helper()
	h, err := NewHandler(&fakeSearcher{}, zerolog.Nop(), opts)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func fixture(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile("../search/overlap/testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestUploadRefused(t *testing.T) {
	csvFile := map[string][]byte{"s.csv": fixture(t, "submissions.csv")}
	tests := []struct {
		name   string
		opts   Options
		fields map[string]string
		files  map[string][]byte
		code   int
		want   string
	}{
		{"no token configured", Options{}, map[string]string{"token": ""}, csvFile, 403, "uploads are disabled"},
		{"wrong token", Options{ReloadToken: testToken}, map[string]string{"token": "guess"}, csvFile, 401, "wrong or missing token"},
		{"no file", Options{ReloadToken: testToken}, map[string]string{"token": testToken}, nil, 400, "choose a file of submissions"},
		{"bad min", Options{ReloadToken: testToken}, map[string]string{"token": testToken, "min": "2"}, csvFile, 400, "min must be a number from 0.10 to 1"},
		{"bad zone", Options{ReloadToken: testToken}, map[string]string{"token": testToken, "time_zone": "Mars/Base"}, csvFile, 400, "time_zone &#34;Mars/Base&#34; is not an IANA zone name"},
		{"bad format", Options{ReloadToken: testToken}, map[string]string{"token": testToken, "format": "pdf"}, csvFile, 400, "format &#34;pdf&#34;: want html, csv or json"},
		{"too large", Options{ReloadToken: testToken, MaxUploadBytes: 1024}, map[string]string{"token": testToken}, csvFile, 413, "too large"},
		{"format without a reader", Options{ReloadToken: testToken}, map[string]string{"token": testToken}, map[string][]byte{"slides.pdf": []byte("%PDF-1.4 binary")}, 400, "slides.pdf"},
		{"schedule without a usable talk", Options{ReloadToken: testToken}, map[string]string{"token": testToken}, map[string][]byte{"schedule.xml": []byte("<schedule/>")}, 422, "schedule.xml"},
		{"file past its parse time", Options{ReloadToken: testToken, MaxParseTime: time.Nanosecond}, map[string]string{"token": testToken}, csvFile, 400, "read s.csv: ingest stopped: took longer than 1ns to read (--max-parse-time)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := postUpload(t, uploadHandler(t, tt.opts), tt.fields, tt.files)
			if rec.Code != tt.code || !strings.Contains(rec.Body.String(), tt.want) {
				t.Errorf("got %d %s, want %d with %q", rec.Code, rec.Body.String(), tt.code, tt.want)
			}
			if cc := rec.Header().Get("Cache-Control"); tt.code != 413 && cc != "no-store" && cc != "no-cache" {
				t.Errorf("Cache-Control %q", cc)
			}
		})
	}
}

// The upload of the unclosed-quote fixture shows what was read (no row
// lost), the pair after the bad row, and links that export the report.
func TestUploadReport(t *testing.T) {
	h := uploadHandler(t, Options{ReloadToken: testToken})
	rec := postUpload(t, h, map[string]string{"token": testToken, "format": "html"},
		map[string][]byte{"unclosed-quote.csv": fixture(t, "unclosed-quote.csv")})
	body := rec.Body.String()
	if rec.Code != 200 || rec.Header().Get("Content-Type") != typeHTML || rec.Header().Get("Cache-Control") != "no-store" {
		t.Fatalf("got %d %v", rec.Code, rec.Header())
	}
	for _, want := range []string{
		"<tr><td>unclosed-quote.csv</td><td>csv</td><td class=\"num\">5</td><td class=\"num\">3</td><td class=\"num\">0</td><td class=\"num\">0</td><td class=\"num\">2</td><td>2 read as Europe/Paris</td></tr>",
		"<li><code>unclosed-quote.csv:3</code> <span class=\"action\">skipped</span>: malformed csv: a quoted field opened on line 3 is not closed (lines 3-3 skipped)</li>",
		`<span class="kind">Duplicate</span>`,
		`<p class="speakers-shared"><span>Same speaker:</span> <span class="speaker" dir="auto">Ada Lovelace</span></p>`,
		`<span class="speakers"><bdi>Ada Lovelace</bdi></span> <span class="when">Wed 8 Apr, 10:00</span>`,
		`<h4><bdi>Monarch Actors for RL</bdi></h4>`, // an upload's talks have no page to link
	} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(body, `href="/talks/`) || strings.Contains(body, `href="/overlaps/talks/`) {
		t.Error("an upload's report links to pages of the served corpus")
	}
	m := regexp.MustCompile(`id="export-csv" download="overlaps.csv" href="data:text/csv;charset=utf-8;base64,([A-Za-z0-9+/=]+)"`).FindStringSubmatch(body)
	if m == nil {
		t.Fatal("no CSV export link")
	}
	data, err := base64.StdEncoding.DecodeString(m[1])
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal(recs[0], overlap.CSVHeader) || recs[1][0] != "pair" || recs[1][1] != "duplicate" || recs[1][3] != "u1" || recs[1][7] != "u3" {
		t.Errorf("CSV export starts %q", recs[:2])
	}
	if last := recs[len(recs)-3]; last[0] != "row" || last[3] != "unclosed-quote.csv" || !strings.HasPrefix(last[17], "line 7: malformed csv") {
		t.Errorf("CSV export's last noted row %q", last)
	}
	// The totals the page prints are the CSV's last row.
	total := recs[len(recs)-1]
	if total[0] != "total" || !strings.Contains(body, "In all: "+html.EscapeString(total[17])+".") {
		t.Errorf("CSV total %q is not the page's", total)
	}
	if !regexp.MustCompile(`id="export-json" download="overlaps.json" href="data:application/json;base64,`).MatchString(body) {
		t.Error("no JSON export link")
	}
}

func TestUploadExports(t *testing.T) {
	h := uploadHandler(t, Options{ReloadToken: testToken})
	files := map[string][]byte{"pretalx-like.jsonl": []byte(
		`{"id":"A","title":"Monarch Actors for RL","abstract":"Monarch drives actors on a cluster through process meshes for reinforcement learning.","speakers":[{"name":"Ada Lovelace","source_id":"ADA1"}],"room":"Room A","start":"2026-04-08 10:00","end":"2026-04-08 10:30"}` + "\n" +
			`{"id":"B","title":"Profiling ROCm","abstract":"We profile HIP kernels on MI300 with rocprof.","speakers":[{"name":"ADA LOVELACE","source_id":"ADA1"}],"room":"Room B","start":"2026-04-08 10:15","end":"2026-04-08 10:45"}` + "\n" +
			"not json\n")}
	rec := postUpload(t, h, map[string]string{"token": testToken, "format": "json"}, files)
	if rec.Code != 200 || rec.Header().Get("Content-Disposition") != `attachment; filename="overlaps.json"` {
		t.Fatalf("got %d %v %s", rec.Code, rec.Header(), rec.Body)
	}
	var rep OverlapsDoc
	if err := json.Unmarshal(rec.Body.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Files) != 1 || rep.Files[0].Rows != 3 || rep.Files[0].Kept != 2 || rep.Files[0].Skipped != 1 || rep.Files[0].NaiveTimes != 2 {
		t.Errorf("files %+v", rep.Files)
	}
	if len(rep.Conflicts) != 1 || rep.Conflicts[0].Kind != overlap.ConflictSpeaker || rep.Conflicts[0].Speaker != "Ada Lovelace" || rep.Conflicts[0].A != "A" {
		t.Errorf("conflicts %+v", rep.Conflicts)
	}
	if len(rep.Skipped) != 1 || rep.Skipped[0].Line != 3 {
		t.Errorf("skipped %+v", rep.Skipped)
	}
	if want := (TotalsDoc{Conflicts: 1, Rows: 3, Kept: 2, Skipped: 1}); rep.Totals != want {
		t.Errorf("totals %+v, want %+v", rep.Totals, want)
	}
	rec = postUpload(t, h, map[string]string{"token": testToken, "format": "csv"}, files)
	if rec.Code != 200 || rec.Header().Get("Content-Type") != typeCSV || !strings.Contains(rec.Body.String(), "conflict,speaker,,A,,2026,Monarch Actors for RL,B,,2026,Profiling ROCm,,,Room A,Room B,2026-04-08T10:15:00+02:00,2026-04-08T10:30:00+02:00,Ada Lovelace\n") {
		t.Errorf("CSV %d %s", rec.Code, rec.Body)
	}
	// Nothing usable: the report says why, with 422.
	rec = postUpload(t, h, map[string]string{"token": testToken, "format": "json"}, map[string][]byte{"empty.jsonl": []byte("{\"title\":\"\"}\n")})
	if rec.Code != 422 || !strings.Contains(rec.Body.String(), `"reason":"title is empty"`) {
		t.Errorf("nothing usable: %d %s", rec.Code, rec.Body)
	}
}

// The page offers the upload only to a server that takes it.
func TestUploadFormShown(t *testing.T) {
	without := get(t, uploadHandler(t, Options{}), "/overlaps").Body.String()
	with := get(t, uploadHandler(t, Options{ReloadToken: testToken}), "/overlaps").Body.String()
	if strings.Contains(without, `id="upload"`) || !strings.Contains(with, `<form id="upload" action="/overlaps" method="post" enctype="multipart/form-data">`) {
		t.Errorf("upload form shown without a token, or not with one")
	}
}

func TestOverlapsCSVAndTalkView(t *testing.T) {
	h, e := newRealHandler(t)
	rec := get(t, h, "/api/overlaps.csv")
	recs, err := csv.NewReader(rec.Body).ReadAll()
	if rec.Code != 200 || err != nil || !cmp.Equal(recs[0], overlap.CSVHeader) || len(recs) < 10 {
		t.Fatalf("CSV %d %v %d records", rec.Code, err, len(recs))
	}
	monarch := talkByTitle(t, e, "Bringing PyTorch Monarch to AMD")
	rec = get(t, h, "/api/overlaps/talks/"+monarch.ID)
	var v TalkOverlapsDoc
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil || rec.Code != 200 {
		t.Fatalf("%d %v", rec.Code, err)
	}
	other := talkByTitle(t, e, "Monarch: An API").ID
	found := false
	for _, p := range v.Similar {
		if p.A == other || p.B == other {
			found = len(p.SharedTerms) > 0 && len(p.Passages.A) > 0
		}
	}
	if !found || len(v.Similar) == 0 || v.Versions == nil || v.Conflicts == nil {
		t.Errorf("view %+v lacks the Monarch lightning talk with its explanation", v)
	}
	page := get(t, h, "/overlaps/talks/"+monarch.ID).Body.String()
	for _, want := range []string{`<h2 id="similar-h">Similar submissions</h2>`, `<article class="pair">`, "<mark>Monarch</mark>", `href="/talks/` + other + `"`} {
		if !strings.Contains(page, want) {
			t.Errorf("organizer view lacks %q", want)
		}
	}
	if rec := get(t, h, "/overlaps/talks/no-such-talk"); rec.Code != 404 {
		t.Errorf("unknown talk: %d", rec.Code)
	}
	if rec := get(t, h, "/api/overlaps/talks/no-such-talk"); rec.Code != 404 || !strings.Contains(rec.Body.String(), "no talk compared for overlaps") {
		t.Errorf("unknown talk: %d %s", rec.Code, rec.Body)
	}
}

// A body of unknown length is cut at the bound while it is read.
func TestUploadTooLargeStreamed(t *testing.T) {
	h := uploadHandler(t, Options{ReloadToken: testToken, MaxUploadBytes: 1024})
	body, ct := uploadForm(t, map[string]string{"token": testToken}, map[string][]byte{"s.csv": fixture(t, "submissions.csv")})
	req := httptest.NewRequest(http.MethodPost, "/overlaps", body)
	req.Header.Set("Content-Type", ct)
	req.ContentLength = -1
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 413 || !strings.Contains(rec.Body.String(), "request body too large: uploads are limited to 1024 bytes") {
		t.Errorf("got %d %s", rec.Code, rec.Body)
	}
}

// FuzzUploadPage uploads arbitrary CSV or JSON Lines whose every text
// carries a tag: whatever the file, the answer is a page (200, 400 or 422)
// in which the tag is escaped, never markup.
func FuzzUploadPage(f *testing.F) {
	f.Add("title,abstract,speakers\nMonarch <zz-fuzz>,Monarch actors <zz-fuzz>,Ada <zz-fuzz>\nMonarch <zz-fuzz>,Monarch actors <zz-fuzz>,Ada\n", "csv")
	f.Add(`{"title":"<zz-fuzz>","abstract":"<zz-fuzz> a","speakers":[{"name":"<zz-fuzz>"}],"room":"<zz-fuzz>","start":"2026-04-08 10:00","end":"2026-04-08 11:00"}`+"\n", "jsonl")
	f.Add("title,abstract\n\"<zz-fuzz>,x\n", "csv")
	h := uploadHandler(f, Options{ReloadToken: testToken})
	f.Fuzz(func(t *testing.T, data, ext string) {
		if len(data) > 4096 || len(ext) > 8 {
			return
		}
		data = strings.ReplaceAll(data, "zz", "<zz-fuzz>")
		rec := postUpload(t, h, map[string]string{"token": testToken}, map[string][]byte{"f." + ext: []byte(data)})
		switch rec.Code {
		case 200, 400, 422:
		default:
			t.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
		if body := rec.Body.String(); strings.Contains(body, "<zz-fuzz>") {
			t.Fatalf("unescaped upload text in the page")
		}
	})
}

// countingReader counts the bytes read from it.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// TestUploadTokenBeforeTheBody: a wrong token is refused as soon as its
// field is read, before the files that follow it are (a client without the
// token costs a few bytes of its body, not the 8 MiB allowed); files sent
// before any token are refused unread; and wrong tokens from one client
// are limited as on /admin/reload (429 with Retry-After).
func TestUploadTokenBeforeTheBody(t *testing.T) {
	h := uploadHandler(t, Options{ReloadToken: testToken})
	big := bytes.Repeat([]byte("title,abstract\nA talk,About things\n"), 150_000) // about 5 MiB
	send := func(fields []string, file []byte) (*httptest.ResponseRecorder, int) {
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		for i := 0; i+1 < len(fields); i += 2 {
			mw.WriteField(fields[i], fields[i+1])
		}
		if file != nil {
			w, _ := mw.CreateFormFile("file", "cfp.csv")
			w.Write(file)
		}
		mw.Close()
		cr := &countingReader{r: &body}
		req := httptest.NewRequest(http.MethodPost, "/overlaps", cr)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		req.RemoteAddr = "192.0.2.7:1234"
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec, cr.n
	}
	rec, read := send([]string{"token", "guess"}, big)
	if rec.Code != http.StatusUnauthorized || read > 64<<10 {
		t.Errorf("wrong token: %d after reading %d bytes, want 401 after at most 64 KiB", rec.Code, read)
	}
	rec, read = send(nil, big)
	if rec.Code != http.StatusUnauthorized || read > 64<<10 {
		t.Errorf("a file before the token: %d after reading %d bytes, want 401 after at most 64 KiB", rec.Code, read)
	}
	limited := 0
	for range 40 {
		if rec, _ := send([]string{"token", "guess"}, []byte("title,abstract\n")); rec.Code == http.StatusTooManyRequests {
			limited++
			if rec.Header().Get("Retry-After") == "" {
				t.Fatal("429 without Retry-After")
			}
		}
	}
	if limited == 0 {
		t.Error("40 wrong tokens from one client, none limited")
	}
	// The right token from a limited client waits too: the limit is the
	// client's, whatever it sends next.
	if rec, _ := send([]string{"token", testToken}, []byte("title,abstract\nA,B\n")); rec.Code != http.StatusTooManyRequests {
		t.Errorf("right token from a limited client: %d, want 429", rec.Code)
	}
}

// TestUploadAnsweredWithinTheRequestTimeout: an upload whose analysis
// takes longer than --request-timeout is answered 503 at the deadline, and
// a second upload while that analysis still runs is turned away with 429
// rather than starting another.
func TestUploadAnsweredWithinTheRequestTimeout(t *testing.T) {
	h := uploadHandler(t, Options{ReloadToken: testToken, RequestTimeout: 50 * time.Millisecond, MaxUploadBytes: 16 << 20})
	var b strings.Builder
	b.WriteString("id,title,abstract,speakers\n")
	for i := range 6000 {
		fmt.Fprintf(&b, "s%d,Talk %d about kernels and compilers,\"Scheduling GPU kernels %d with compilers, caches and graphs of operators.\",Speaker %d\n", i, i, i%97, i%300)
	}
	files := map[string][]byte{"cfp.csv": []byte(b.String())}
	start := time.Now()
	rec := postUpload(t, h, map[string]string{"token": testToken}, files)
	took := time.Since(start)
	if rec.Code != http.StatusServiceUnavailable || took > 2*time.Second {
		t.Fatalf("a long analysis: %d after %v, want 503 at the deadline", rec.Code, took)
	}
	if rec := postUpload(t, h, map[string]string{"token": testToken}, files); rec.Code != http.StatusTooManyRequests {
		t.Errorf("a second upload during the first's analysis: %d, want 429", rec.Code)
	}
}

// A page that lists fewer than the report holds says how many of how many,
// and its counts are the JSON's and the CSV's.
func TestOverlapsPageShowsNOfM(t *testing.T) {
	h, f := newTestHandler(t, zerolog.Nop())
	f.morePairs, f.moreClashes = 4691, 6
	body := get(t, h, "/overlaps").Body.String()
	for _, want := range []string{
		`<a href="#pairs">Pairs (4692)</a>`,
		`<a href="#clashes">Schedule clashes (7)</a>`,
		`<p class="showing">Showing 1 of 4692 pairs, the best first;`,
		`<p class="showing">Showing 1 of 7 clashes, the most similar first.</p>`,
		`<p class="totals">In all: 4692 pairs, 1 clusters, 7 clashes, 0 conflicts, 0 earlier versions, 0 recurring sessions, 1 merged at ingest.</p>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	var doc OverlapsDoc
	if err := json.Unmarshal(get(t, h, "/api/overlaps").Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if want := (TotalsDoc{Pairs: 4692, Clusters: 1, Clashes: 7, Merged: 1}); doc.Totals != want {
		t.Errorf("JSON totals %+v, want %+v", doc.Totals, want)
	}
	recs, err := csv.NewReader(get(t, h, "/api/overlaps.csv").Body).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if last := recs[len(recs)-1]; last[0] != "total" || last[17] != "4692 pairs, 1 clusters, 7 clashes, 0 conflicts, 0 earlier versions, 0 recurring sessions, 1 merged at ingest" {
		t.Errorf("CSV total %q", last)
	}
}

// Each pair card offers the committee's decisions file rows for it, to
// download: the server writes nothing.
func TestPairCardOffersDecisionRows(t *testing.T) {
	h, _ := newTestHandler(t, zerolog.Nop())
	body := get(t, h, "/overlaps").Body.String()
	m := regexp.MustCompile(`<a download="decision.csv" href="data:text/csv;charset=utf-8;base64,([A-Za-z0-9+/=]+)">not an overlap</a>`).FindStringSubmatch(body)
	if m == nil {
		t.Fatal("no not-an-overlap download on the pair card")
	}
	row, err := base64.StdEncoding.DecodeString(m[1])
	if err != nil || string(row) != "a,b,decision,note\nmonarch-on-rocm-1a2b,torchstore-3c4d,not-an-overlap,\n" {
		t.Errorf("decision row %q (%v)", row, err)
	}
}
