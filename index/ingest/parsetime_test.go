package ingest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/talksearch/talksearch/index"
)

// TestParseTimeBudget: a file whose reader runs past Options.MaxParseTime
// is stopped and becomes one warning, and the load goes on to the next
// file: with a budget no reader can keep, every file of every format is
// such a warning, and the load still ends without an error.
func TestParseTimeBudget(t *testing.T) {
	dir := t.TempDir()
	for _, src := range []string{"testdata/formats/frab-devroom.xml", "testdata/formats/frab-camp.json", "testdata/formats/pretalx-expanded.json",
		"testdata/formats/sessionize-all-data.json", "testdata/formats/ical-community.ics", "testdata/formats/cfp.csv",
		"testdata/formats/synthetic-sample.jsonl", "testdata/split/003_sched.txt"} {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(src)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c, err := LoadPaths([]string{dir}, Options{MaxParseTime: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range c.Report.Warnings {
		got = append(got, w.String())
	}
	const over = ":0: %s: took longer than 1ns to read (--max-parse-time): stopped, no talks read from this file"
	var want []string
	for _, f := range [][2]string{{"003_sched.txt", "schedule"}, {"cfp.csv", "csv"}, {"frab-camp.json", "frab-json"}, {"frab-devroom.xml", "frab-xml"},
		{"ical-community.ics", "ical"}, {"pretalx-expanded.json", "pretalx"}, {"sessionize-all-data.json", "sessionize"}, {"synthetic-sample.jsonl", "jsonl"}} {
		want = append(want, f[0]+fmt.Sprintf(over, f[1]))
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("warnings (-want +got):\n%s", d)
	}
	if len(c.Talks) != 0 {
		t.Errorf("%d talks read past the budget, want none", len(c.Talks))
	}

	// A JSON Lines file over --max-file-bytes streams: the same bound.
	c, err = LoadPaths([]string{filepath.Join(dir, "synthetic-sample.jsonl")}, Options{MaxParseTime: time.Nanosecond, MaxFileBytes: 64})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Report.Warnings) != 1 || c.Report.Warnings[0].String() != "synthetic-sample.jsonl"+fmt.Sprintf(over, "jsonl") {
		t.Errorf("streamed JSON Lines past the budget: warnings %v", c.Report.Warnings)
	}

	// Within the default budget, the same files are read.
	c, err = LoadPaths([]string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range c.Report.Warnings {
		if strings.Contains(w.Msg, "--max-parse-time") {
			t.Errorf("within the default budget: %s", w)
		}
	}
	if len(c.Talks) == 0 {
		t.Error("no talks within the default budget")
	}

	// ReadFile keeps the budget too.
	b, _ := os.ReadFile(filepath.Join(dir, "frab-devroom.xml"))
	_, _, err = ReadFile("frab-devroom.xml", b, Options{MaxParseTime: time.Nanosecond})
	var pt ParseTimeError
	if !errors.As(err, &pt) || pt.Limit != time.Nanosecond {
		t.Errorf("ReadFile past the budget: %v, want a ParseTimeError of 1ns", err)
	}

	// The organizers' importer (overlaps --from, the upload) too, even on
	// a file that never ends.
	in := NewImporter(ImportOptions{MaxParseTime: time.Nanosecond}, func(index.Talk) {})
	_, err = in.Read("endless.jsonl", &endless{})
	if want := "read endless.jsonl: ingest stopped: took longer than 1ns to read (--max-parse-time)"; err == nil || err.Error() != want || !errors.As(err, &pt) {
		t.Errorf("an endless import past the budget: %v, want %q", err, want)
	}
}

// looksCtx is a context that counts the looks readers take at it (Err):
// all of them, and those taken outside a read of the file (ctxReader),
// while decoded records are handled. It is cancelled from look cancelAt
// on (0: never).
type looksCtx struct {
	context.Context
	looks, handling, cancelAt int
	firstHandling             int // the number of the first look outside a read
}

func (c *looksCtx) Err() error {
	c.looks++
	if !inRead() {
		c.handling++
		if c.firstHandling == 0 {
			c.firstHandling = c.looks
		}
	}
	if c.cancelAt > 0 && c.looks >= c.cancelAt {
		return context.Canceled
	}
	return nil
}

// inRead reports whether ctxReader.Read is among the callers.
func inRead() bool {
	pc := make([]uintptr, 32)
	frames := runtime.CallersFrames(pc[:runtime.Callers(3, pc)])
	for {
		f, more := frames.Next()
		if strings.HasSuffix(f.Function, "ingest.ctxReader.Read") {
			return true
		}
		if !more {
			return false
		}
	}
}

// TestCancelEndsDecodedRecords: the JSON readers look at their context
// while they turn decoded records into talks (once per cancelEvery), not
// only while they read the file, and the first of those looks that sees a
// cancel ends them with it. A cancel at any look is the cancel, never
// another error (data after the document, a line's syntax).
func TestCancelEndsDecodedRecords(t *testing.T) {
	const n = 3*cancelEvery + 1
	var frab, pretalx, sessions []string
	for i := range n {
		frab = append(frab, fmt.Sprintf(`{"id":"%d","title":"Talk %d","start":"10:00","duration":"00:30"}`, i, i))
		pretalx = append(pretalx, fmt.Sprintf(`{"code":"C%d","title":"Talk %d","abstract":"About %d.","state":"confirmed"}`, i, i, i))
		sessions = append(sessions, fmt.Sprintf(`{"id":"%d","title":"Talk %d","description":"About %d.","roomId":1}`, i, i, i))
	}
	for _, tt := range []struct {
		f    Format
		data string
	}{
		{frabJSON{}, `{"schedule":{"conference":{"title":"Many","days":[{"date":"2026-01-01","rooms":{"A":[` + strings.Join(frab, ",") + `]}}]}}}`},
		{pretalxAPI{}, `{"count":1,"next":null,"previous":null,"results":[` + strings.Join(pretalx, ",") + `]}`},
		{sessionize{}, `{"sessions":[` + strings.Join(sessions, ",") + `],"speakers":[],"rooms":[]}`},
	} {
		if !tt.f.Detect([]byte(tt.data)) {
			t.Fatalf("%s: the fixture is not detected as such", tt.f.Name())
		}
		all := &looksCtx{Context: context.Background()}
		talks, _, err := tt.f.Read("many", []byte(tt.data), Options{Context: all, TimeZone: time.UTC})
		if err != nil || len(talks) != n {
			t.Fatalf("%s: %d talks, %v; want %d", tt.f.Name(), len(talks), err, n)
		}
		// pretalx handles its records twice (their names, then their talks).
		if want := (n + cancelEvery - 1) / cancelEvery; all.handling < want {
			t.Errorf("%s: %d looks while handling %d records, want at least %d", tt.f.Name(), all.handling, n, want)
		}
		for k := 1; k <= all.looks; k++ {
			c := &looksCtx{Context: context.Background(), cancelAt: k}
			talks, _, err = tt.f.Read("many", []byte(tt.data), Options{Context: c, TimeZone: time.UTC})
			if err == nil || !strings.HasSuffix(err.Error(), "ingest stopped: context canceled") || talks != nil {
				t.Errorf("%s cancelled at look %d of %d: %d talks, %v; want the cancel", tt.f.Name(), k, all.looks, len(talks), err)
			}
			if k == all.firstHandling && (err == nil || err.Error() != "ingest stopped: context canceled") {
				t.Errorf("%s cancelled at its first look while handling records: %v, want the cancel", tt.f.Name(), err)
			}
		}
	}
}
