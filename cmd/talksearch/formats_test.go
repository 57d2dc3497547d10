package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var fixtures = filepath.Join("..", "..", "index", "ingest", "testdata", "formats")

// TestExportFormats: --seeds repeats, takes files and directories alike,
// and the export carries each source's conference, ids and zone.
func TestExportFormats(t *testing.T) {
	out, stderr, err := runCmd(t, nil, "export",
		"--seeds", filepath.Join(fixtures, "frab-devroom.xml"),
		"--seeds", filepath.Join(fixtures, "frab-camp.json"))
	if err != nil || stderr != "" {
		t.Fatalf("export: %v, stderr %q", err, stderr)
	}
	confs := map[string]int{}
	var first map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var tk struct {
			Conference struct{ ID string }
			Start      string
			TimeZone   string `json:"time_zone"`
		}
		if err := json.Unmarshal([]byte(line), &tk); err != nil {
			t.Fatal(err)
		}
		confs[tk.Conference.ID]++
		if first == nil {
			json.Unmarshal([]byte(line), &first)
		}
	}
	if confs["osw-2025"] != 6 || confs["seeufer2023"] != 3 || len(confs) != 2 {
		t.Errorf("talks per conference %v, want 6 osw-2025 and 3 seeufer2023", confs)
	}
	// Sorted by start: seeufer2023 (2023) first, in Berlin's summer offset.
	if first["start"] != "2023-08-16T11:00:00+02:00" || first["time_zone"] != "Europe/Berlin" || first["source_id"] != "20101" {
		t.Errorf("first talk %v", first)
	}
}

// TestTimeZoneFlag: a schedule that names no zone is read in --time-zone
// (or TALKSEARCH_TIME_ZONE); without it, a warning says what to pass.
func TestTimeZoneFlag(t *testing.T) {
	dir := t.TempDir()
	xml := `<schedule><conference><title>FOSDEM 2013</title></conference><day date="2013-02-02"><room name="Janson">` +
		`<event id="1113"><start>10:30</start><duration>00:25</duration><room>Janson</room><title>Welcome to FOSDEM 2013</title><type>keynote</type></event></room></day></schedule>`
	file := filepath.Join(dir, "fosdem-2013.xml")
	if err := os.WriteFile(file, []byte(xml), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, err := runCmd(t, map[string]string{"TALKSEARCH_TIME_ZONE": "Europe/Brussels"}, "export", "--seeds", file)
	if err != nil || stderr != "" || !strings.Contains(out, `"start":"2013-02-02T10:30:00+01:00","end":"2013-02-02T10:55:00+01:00","time_zone":"Europe/Brussels","kind":"keynote"`) {
		t.Errorf("with TALKSEARCH_TIME_ZONE: %v %q\n%s", err, stderr, out)
	}
	out, stderr, err = runCmd(t, nil, "export", "--seeds", file)
	if err != nil || !strings.Contains(stderr, "warning: fosdem-2013.xml:1: the schedule (no <time_zone_name>, no <date> with an offset) names no time zone: times read as UTC; pass --time-zone") ||
		!strings.Contains(out, `"start":"2013-02-02T10:30:00Z"`) {
		t.Errorf("without: %v %q\n%s", err, stderr, out)
	}
	if _, _, err := runCmd(t, nil, "export", "--seeds", file, "--time-zone", "Mars/Olympus"); err == nil || !strings.Contains(err.Error(), `--time-zone: time zone "Mars/Olympus"`) {
		t.Errorf("unknown zone: %v", err)
	}
}

// TestServeFormats: serve reads repeated --seeds of several conferences,
// answers across them and logs the build's rate.
func TestServeFormats(t *testing.T) {
	s := serveSeeds(t, nil,
		"--seeds", filepath.Join(fixtures, "frab-devroom.xml"),
		"--seeds", filepath.Join(fixtures, "frab-camp.json"),
		"--seeds", filepath.Join(fixtures, "pretalx-submissions.json"))
	if got := s.total(t, ""); got != 6+3+5 {
		t.Errorf("%d talks served, want 14", got)
	}
	if got := s.total(t, "turtle"); got != 2 {
		t.Errorf("%d talks on turtle graphics, want the workshop's 2 sessions", got)
	}
	var talk struct {
		Conference struct{ ID, Name string }
		Start      string
	}
	if code := s.getJSON(t, "/api/talks/learn-to-program-with-turtle-graphics-027306", &talk); code != 200 ||
		talk.Conference.ID != "osw-2025" || talk.Start != "2025-02-02T16:00:00+01:00" {
		t.Errorf("talk: %d %+v", code, talk)
	}
	if log := s.log.String(); !strings.Contains(log, `"talks":14,`) || !strings.Contains(log, `"talks_per_s":`) || !strings.Contains(log, `"message":"index built"`) {
		t.Errorf("no build rate logged:\n%s", log)
	}
}
