package ingest

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// fuzzFormat runs the reader of format on fuzzed data seeded with the
// fixture and a few broken variants of it, with a line limit small enough
// to be met: no panic, and whatever is read is a talk the index can take
// (a title, a URL-safe id unique in the file, the file as its source, a
// start when scheduled, no NUL or bad UTF-8 from a row format) and
// warnings name the file within its lines.
func fuzzFormat(f *testing.F, format Format, fixture string, extra ...string) {
	data, err := os.ReadFile(filepath.Join(formatsDir, fixture))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add(data[:len(data)/3])
	for _, e := range extra {
		f.Add([]byte(e))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		const file = "f"
		talks, warns, err := format.Read(file, data, Options{MaxLineBytes: 4 << 10})
		if err != nil && talks != nil {
			t.Fatalf("error %v with %d talks", err, len(talks))
		}
		lines := bytes.Count(data, []byte("\n")) + 2
		for _, w := range warns {
			if w.File != file || w.Line < 0 || w.Line > lines || w.Msg == "" {
				t.Fatalf("bad warning %+v (%d lines)", w, lines)
			}
		}
		ids := map[string]bool{}
		for _, tk := range talks {
			if tk.Title == "" || !urlSafe(tk.ID) || ids[tk.ID] || tk.Conference.ID == "" && format.Name() != "jsonl" {
				t.Fatalf("bad talk %+v", tk)
			}
			ids[tk.ID] = true
			if _, rows := format.(rowFormat); rows && (!utf8.ValidString(tk.Title+tk.Abstract+tk.Description) || strings.ContainsRune(tk.Title+tk.Abstract+tk.Description, 0)) {
				t.Fatalf("NUL or bad UTF-8 kept: %+v", tk)
			}
			if format.Name() != "jsonl" && (len(tk.Sources) != 1 || tk.Sources[0] != file) {
				t.Fatalf("sources %v", tk.Sources)
			}
			if tk.Scheduled && tk.Start == nil && format.Name() != "jsonl" {
				t.Fatalf("scheduled without a start: %+v", tk)
			}
			if tk.Start != nil && tk.End != nil && tk.End.Before(*tk.Start) && format.Name() != "jsonl" {
				t.Fatalf("ends before it starts: %+v", tk)
			}
		}
	})
}

func FuzzReadFrabXML(f *testing.F) {
	fuzzFormat(f, frabXML{}, "frab-devroom.xml",
		`<schedule><day date="2025-02-01"><room><event id="1"><start>10:00</start><duration>99:99</duration><title>T</title></event><event id="1"><title>T</title></event></room></day></schedule>`,
		`<!DOCTYPE s [<!ENTITY a "&b;&b;">]><schedule>&a;</schedule>`)
}

func FuzzReadFrabJSON(f *testing.F) {
	fuzzFormat(f, frabJSON{}, "frab-camp.json",
		`{"schedule":{"conference":{"days":[{"rooms":{"A":[{"id":"x","title":"T","date":"2019-08-21T11:00:00+02:00","duration":"00:30"},{"id":1,"title":""}]}}]}}}`)
}

func FuzzReadICal(f *testing.F) {
	fuzzFormat(f, iCalendar{}, "pentabarf.ical",
		"BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:a\nSUMMARY:T\nDTSTART;TZID=Europe/Paris:20250201T100000\nDTEND:20250201T090000Z\nEND:VEVENT\nEND:VCALENDAR\n")
}

func FuzzReadPretalx(f *testing.F) {
	fuzzFormat(f, pretalxAPI{}, "pretalx-submissions.json",
		`{"results":[{"code":"A","title":{"xx":"T"},"slots":[{"start":"2025-05-20T10:00:00+02:00","end":"2025-05-20T09:00:00+02:00"}],"speakers":["B"]}]}`)
}

func FuzzReadJSONL(f *testing.F) {
	fuzzFormat(f, jsonLines{}, "synthetic-sample.jsonl", "{\"title\":\"T\",\"time_zone\":\"Mars/Olympus\"}\n{\"id\":\"a b\",\"title\":\"U\"}\n")
}

func FuzzReadCSV(f *testing.F) {
	fuzzFormat(f, csvFormat{}, "cfp.csv", "title,abstract,start,end\nT,A,2026-04-08 10:00,2026-04-08 09:00\n\"open,x\n", "Title,Abstract\n")
}

// FuzzReadFileCapped reads fuzzed data as a file of any format, as Load
// and ReadFile detect it (UTF-16 by its byte order mark), under small
// limits of file and line: no panic, every warning names the file, and
// an error never comes with talks.
func FuzzReadFileCapped(f *testing.F) {
	for _, name := range []string{"frab-devroom.xml", "cfp.csv", "synthetic-sample.jsonl", "pentabarf.ical"} {
		data, err := os.ReadFile(filepath.Join(formatsDir, name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data[:min(len(data), 8<<10)])
	}
	f.Add(utf16Bytes("<schedule><day date=\"2025-02-01\"><room><event id=\"1\"><title>T</title></event></room></day></schedule>", false))
	f.Add(utf16Bytes(`{"title":"T"}`+"\n", true))
	f.Add([]byte("<schedule>" + strings.Repeat("<x>", 100) + strings.Repeat("</x>", 100) + "</schedule>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		const file = "f"
		talks, warns, err := ReadFile(file, data, Options{MaxFileBytes: 32 << 10, MaxLineBytes: 512})
		if err != nil && talks != nil {
			t.Fatalf("error %v with %d talks", err, len(talks))
		}
		for _, w := range warns {
			if w.File != file || w.Line < 0 || w.Msg == "" {
				t.Fatalf("bad warning %+v", w)
			}
		}
		for _, tk := range talks {
			if tk.Title == "" || !urlSafe(tk.ID) {
				t.Fatalf("bad talk %+v", tk)
			}
		}
	})
}
