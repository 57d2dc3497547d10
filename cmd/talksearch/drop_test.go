package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/ingest"
	"github.com/talksearch/talksearch/web"
)

// talkFrom is a talk read from files; its Sources, which the data
// states, name nothing, as a JSON Lines row may.
func talkFrom(id string, files ...string) index.Talk {
	return index.Talk{ID: id, ReadFrom: files, Sources: []string{"elsewhere.txt"}}
}

func TestDropped(t *testing.T) {
	serving := sourcesOf([]index.Talk{
		talkFrom("only-a", "a.txt"), talkFrom("only-a-2", "a.txt"),
		talkFrom("a-and-b", "a.txt", "b.txt"), talkFrom("only-b", "b.txt"),
		talkFrom("a-and-c", "a.txt", "c.txt"),
	})
	tests := []struct {
		name      string
		next      []index.Talk
		wantTalks int
		wantFiles map[string]int
	}{
		{"nothing changed", []index.Talk{talkFrom("only-a", "a.txt"), talkFrom("only-a-2", "a.txt"), talkFrom("a-and-b", "a.txt", "b.txt"), talkFrom("only-b", "b.txt"), talkFrom("a-and-c", "a.txt", "c.txt")}, 0, map[string]int{}},
		{"a.txt deleted", []index.Talk{talkFrom("a-and-b", "b.txt"), talkFrom("only-b", "b.txt"), talkFrom("a-and-c", "c.txt")}, 2, map[string]int{"a.txt": 2}},
		{"a.txt and c.txt deleted", []index.Talk{talkFrom("a-and-b", "b.txt"), talkFrom("only-b", "b.txt")}, 3, map[string]int{"a.txt": 3, "c.txt": 1}},
		{"a talk removed from a file that stays", []index.Talk{talkFrom("only-a", "a.txt"), talkFrom("a-and-b", "a.txt", "b.txt"), talkFrom("only-b", "b.txt"), talkFrom("a-and-c", "a.txt", "c.txt")}, 0, map[string]int{}},
		{"a.txt renamed", []index.Talk{talkFrom("only-a", "z.txt"), talkFrom("only-a-2", "z.txt"), talkFrom("a-and-b", "b.txt", "z.txt"), talkFrom("only-b", "b.txt"), talkFrom("a-and-c", "c.txt", "z.txt")}, 0, map[string]int{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := dropped(serving, tt.next)
			if got.talks != tt.wantTalks || !equalCounts(got.files, tt.wantFiles) {
				t.Errorf("dropped = %d talks %v, want %d %v", got.talks, got.files, tt.wantTalks, tt.wantFiles)
			}
		})
	}
	err := dropped(serving, []index.Talk{talkFrom("only-b", "b.txt")}).err("use force")
	want := "3 talks found in no other seed file would be dropped: a.txt (3 talks), c.txt (1 talk) are gone or yield no talks; use force to accept"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant  %s", err, want)
	}
}

func equalCounts(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestReloaderRefusesToDropUnlessForced(t *testing.T) {
	serving := &ingest.Corpus{Talks: []index.Talk{talkFrom("x", "000.txt"), talkFrom("y", "001.txt")}}
	next := &ingest.Corpus{Talks: []index.Talk{talkFrom("y", "001.txt")}}
	for _, tt := range []struct {
		name      string
		allowDrop bool
		force     bool
		wantSwap  bool
	}{{"refused", false, false, false}, {"forced", false, true, true}, {"--allow-drop", true, false, true}} {
		t.Run(tt.name, func(t *testing.T) {
			swapped := false
			r := newReloader(&globals{}, serving, func(*ingest.Corpus) error { swapped = true; return nil }, tt.allowDrop, zerolog.Nop())
			r.load = func() (*ingest.Corpus, error) { return next, nil }
			_, err := r.reload(context.Background(), web.ReloadOptions{Force: tt.force})
			if swapped != tt.wantSwap || (err == nil) != tt.wantSwap {
				t.Fatalf("swapped %v, error %v; want swapped %v", swapped, err, tt.wantSwap)
			}
			if err != nil && (!errors.Is(err, web.ErrWouldDrop) || !errors.Is(err, web.ErrSeedsRejected) || !strings.Contains(err.Error(), "000.txt (1 talk)")) {
				t.Errorf("error %v, want ErrWouldDrop naming 000.txt", err)
			}
		})
	}
}

// reloadForce is POST /admin/reload with a query.
func (s *served) reloadQuery(t *testing.T, token, query string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, s.url+"/admin/reload"+query, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST /admin/reload%s: %v", query, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// uniqueSeed is the seed file holding 6 talks found in no other file.
const uniqueSeed = "000_6b42f94569a604f4.txt"

// TestReloadRefusesADeletedSeed: a reload after deleting a seed file whose
// talks exist in no other file would silently stop serving them, so it is
// refused (409, naming the file) unless forced.
func TestReloadRefusesADeletedSeed(t *testing.T) {
	dir := copySeeds(t)
	const token = "test-token-drop"
	s := serveSeeds(t, nil, "--seeds", dir, "--reload-token", token)
	if got := s.total(t, ""); got != 73 {
		t.Fatalf("serving %d talks, want 73", got)
	}
	if err := os.Remove(filepath.Join(dir, uniqueSeed)); err != nil {
		t.Fatal(err)
	}
	code, body := s.reload(t, token)
	if code != http.StatusConflict || !strings.Contains(body, uniqueSeed+" (6 talks)") || !strings.Contains(body, "force=true") {
		t.Errorf("reload after deleting %s: %d %s, want 409 naming it and its 6 talks", uniqueSeed, code, body)
	}
	if got := s.total(t, ""); got != 73 {
		t.Errorf("after the refused reload: %d talks, want the old 73", got)
	}
	if code, body := s.reloadQuery(t, token, "?force=maybe"); code != http.StatusBadRequest {
		t.Errorf("force=maybe: %d %s, want 400", code, body)
	}
	if code, body := s.reloadQuery(t, token, "?force=true"); code != http.StatusOK || !strings.Contains(body, `"talks":67`) {
		t.Errorf("forced reload: %d %s, want 200 with 67 talks", code, body)
	}
	if got := s.total(t, ""); got != 67 {
		t.Errorf("after the forced reload: %d talks, want 67", got)
	}
}

// writeClaimingSeed writes a JSON Lines seed of two talks whose rows claim
// to come from uniqueSeed: a row may state any sources it likes.
func writeClaimingSeed(t *testing.T, dir string) {
	t.Helper()
	rows := `{"id":"claimed-walrus","title":"Walrus-proof caching for tiny clusters","abstract":"How a three-node cluster kept its cache warm through every walrus-sized outage.","kind":"talk","sources":["` + uniqueSeed + `"]}
{"id":"claimed-heron","title":"Heron: tracing lanterns across services","abstract":"A tracer that lights each hop of a request like a lantern on a quay.","kind":"talk","sources":["` + uniqueSeed + `"]}
`
	if err := os.WriteFile(filepath.Join(dir, "900_claims.jsonl"), []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReloadRefusesADeletedSeedWhateverRowsClaim: the rows of a JSON Lines
// seed that name a seed file in "sources" do not make that file's talks
// found elsewhere; deleting it is refused as without them. The rows keep
// the sources they state (an export reads back as written).
func TestReloadRefusesADeletedSeedWhateverRowsClaim(t *testing.T) {
	dir := copySeeds(t)
	writeClaimingSeed(t, dir)
	const token = "test-token-claims"
	s := serveSeeds(t, nil, "--seeds", dir, "--reload-token", token)
	if got := s.total(t, ""); got != 75 {
		t.Fatalf("serving %d talks, want 75", got)
	}
	var talk struct{ Sources []string }
	if code := s.getJSON(t, "/api/talks/claimed-heron", &talk); code != http.StatusOK || !slices.Equal(talk.Sources, []string{uniqueSeed}) {
		t.Errorf("claimed-heron: %d, sources %v; want 200 and the sources its row states", code, talk.Sources)
	}
	if err := os.Remove(filepath.Join(dir, uniqueSeed)); err != nil {
		t.Fatal(err)
	}
	code, body := s.reload(t, token)
	if code != http.StatusConflict || !strings.Contains(body, "6 talks found in no other seed file would be dropped: "+uniqueSeed+" (6 talks) is gone") {
		t.Errorf("reload after deleting %s: %d %s, want 409 naming it and its 6 talks", uniqueSeed, code, body)
	}
	if got := s.total(t, ""); got != 75 {
		t.Errorf("after the refused reload: %d talks, want the old 75", got)
	}
}

// TestStartRefusesADeletedSeedWhateverRowsClaim is the same at a start
// on the index the seeds were served from.
func TestStartRefusesADeletedSeedWhateverRowsClaim(t *testing.T) {
	dir := copySeeds(t)
	writeClaimingSeed(t, dir)
	idx := filepath.Join(t.TempDir(), "index")
	s := serveSeeds(t, nil, "--index", idx, "--seeds", dir)
	if got := s.total(t, ""); got != 75 {
		t.Errorf("serving %d talks, want 75", got)
	}
	if err := s.stop(); err != nil {
		t.Fatalf("serve: %v\n%s", err, s.log)
	}
	if err := os.Remove(filepath.Join(dir, uniqueSeed)); err != nil {
		t.Fatal(err)
	}
	log, err := startOnly(t, "--index", idx, "--seeds", dir)
	if err == nil || !strings.Contains(err.Error(), "6 talks found in no other seed file would be dropped: "+uniqueSeed+" (6 talks)") {
		t.Errorf("start without %s: %v, want a refusal naming it\n%s", uniqueSeed, err, log)
	}
}

// TestStartRefusesADeletedSeedAgainstTheIndex: stopped, a seed deleted,
// started again on the same --index: the rebuild would lose 6 talks.
func TestStartRefusesADeletedSeedAgainstTheIndex(t *testing.T) {
	dir := copySeeds(t)
	idx := filepath.Join(t.TempDir(), "index")
	serveOnce(t, idx, "--seeds", dir)
	before := indexFiles(t, idx)
	if err := os.Remove(filepath.Join(dir, uniqueSeed)); err != nil {
		t.Fatal(err)
	}
	log, err := startOnly(t, "--index", idx, "--seeds", dir)
	if err == nil || !strings.Contains(err.Error(), uniqueSeed+" (6 talks)") || !strings.Contains(err.Error(), "--allow-drop") {
		t.Errorf("start without %s: %v, want a refusal naming it\n%s", uniqueSeed, err, log)
	}
	if got := indexFiles(t, idx); !slices.Equal(got, before) {
		t.Errorf("index dirs %v after a refused start, want %v", got, before)
	}
	if log, err := startOnly(t, "--index", idx, "--seeds", dir, "--allow-drop"); err != nil {
		t.Errorf("--allow-drop: %v\n%s", err, log)
	}
}

// TestSecondServerOnOneIndexDir: two servers on one --index would delete
// each other's live index on every rebuild, so the second is refused.
func TestSecondServerOnOneIndexDir(t *testing.T) {
	bin := buildBinary(t)
	idx := filepath.Join(t.TempDir(), "index")
	first := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--index", idx, "--log-level", "warn")
	first.Stdout, first.Stderr = io.Discard, io.Discard
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { first.Process.Kill(); first.Wait() }()
	waitListening(t, first, idx)
	serving := currentIndex(t, idx)

	// Other seeds: the second server would rebuild and remove the first's.
	seeds := copySeeds(t)
	if err := os.WriteFile(filepath.Join(seeds, "900_new.txt"), []byte("Zymurgy at scale: brewing quantized kernels with PyTorch, what failed and what we measured.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	second := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--index", idx, "--seeds", seeds)
	second.Stderr = &stderr
	err := second.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitFailure || !strings.Contains(stderr.String(), "--index "+idx+": lock index directory "+idx+": in use by another process") {
		t.Errorf("second server: %v, stderr %q; want exit 1 naming the directory in use", err, stderr.String())
	}
	if got := currentIndex(t, idx); got != serving {
		t.Errorf("current index %s, want the first server's %s", got, serving)
	}
	if _, err := os.Stat(filepath.Join(serving, "talksearch.json")); err != nil {
		t.Errorf("the first server's index lost files: %v", err)
	}
}
