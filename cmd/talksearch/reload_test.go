package main

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/ingest"
	"github.com/talksearch/talksearch/web"
)

func corpusOf(n int, warnings ...ingest.Warning) *ingest.Corpus {
	c := &ingest.Corpus{Talks: make([]index.Talk, n)}
	c.Report.Warnings = warnings
	return c
}

func TestReloaderRefusesWhatWouldLoseTalks(t *testing.T) {
	binary := ingest.Warning{File: "003.txt", Msg: "binary file"}
	tests := []struct {
		name       string
		serving    *ingest.Corpus
		loaded     *ingest.Corpus
		loadErr    error
		swapErr    error
		wantSwap   bool
		wantReject bool   // the error wraps web.ErrSeedsRejected
		wantErr    string // a substring of the error; "" for none
	}{
		{"good seeds", corpusOf(3), corpusOf(4, ingest.Warning{File: "a.txt", Line: 7, Msg: "odd line"}), nil, nil, true, false, ""},
		{"unreadable seeds", corpusOf(3), nil, ingest.ErrNoSeeds, nil, false, true, "no seed files"},
		{"no talks", corpusOf(3), corpusOf(0), nil, nil, false, true, "no talks"},
		{"a seed became unreadable", corpusOf(3), corpusOf(2, binary), nil, nil, false, true, "seed 003.txt: binary file"},
		{"a seed was unreadable already", corpusOf(3, binary), corpusOf(3, binary), nil, nil, true, false, ""},
		{"the build fails", corpusOf(3), corpusOf(3), nil, errors.New("out of memory"), true, false, "out of memory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			swapped := false
			r := &reloader{
				load:    func() (*ingest.Corpus, error) { return tt.loaded, tt.loadErr },
				swap:    func(*ingest.Corpus) error { swapped = true; return tt.swapErr },
				log:     zerolog.Nop(),
				skipped: skippedFiles(tt.serving),
			}
			rep, err := r.reload(context.Background(), web.ReloadOptions{})
			if swapped != tt.wantSwap {
				t.Errorf("swapped = %v, want %v", swapped, tt.wantSwap)
			}
			if errors.Is(err, web.ErrSeedsRejected) != tt.wantReject {
				t.Errorf("error %v: rejected = %v, want %v", err, !tt.wantReject, tt.wantReject)
			}
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("reload: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("reload error = %v, want it to contain %q", err, tt.wantErr)
			case err == nil && (rep.Talks != len(tt.loaded.Talks) || rep.Warnings != len(tt.loaded.Report.Warnings)):
				t.Errorf("report %+v, want %d talks and %d warnings", rep, len(tt.loaded.Talks), len(tt.loaded.Report.Warnings))
			}
		})
	}
}

// TestReloaderBaselineMovesWithTheServingCorpus: once a reload swapped in
// seeds where a file is unreadable, that file no longer blocks reloads.
func TestReloaderBaselineMovesWithTheServingCorpus(t *testing.T) {
	binary := ingest.Warning{File: "003.txt", Msg: "binary file"}
	next := corpusOf(3)
	r := &reloader{
		load:    func() (*ingest.Corpus, error) { return next, nil },
		swap:    func(*ingest.Corpus) error { return nil },
		log:     zerolog.Nop(),
		skipped: skippedFiles(corpusOf(3, binary)),
	}
	if _, err := r.reload(context.Background(), web.ReloadOptions{}); err != nil {
		t.Fatal(err)
	}
	next = corpusOf(2, binary)
	if _, err := r.reload(context.Background(), web.ReloadOptions{}); !errors.Is(err, web.ErrSeedsRejected) {
		t.Errorf("after 003.txt was fixed, breaking it again: error = %v, want rejected", err)
	}
}

func TestReloaderRunsOnSIGHUP(t *testing.T) {
	var swaps atomic.Int32
	swapped := make(chan struct{}, 1)
	r := &reloader{
		load: func() (*ingest.Corpus, error) { return corpusOf(1), nil },
		swap: func(*ingest.Corpus) error {
			swaps.Add(1)
			swapped <- struct{}{}
			return nil
		},
		log:     zerolog.Nop(),
		skipped: map[string]bool{},
	}
	hup, restore := catchSIGHUP()
	defer restore()
	stop := r.watchSIGHUP(context.Background(), hup)
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	select {
	case <-swapped:
	case <-time.After(5 * time.Second):
		t.Fatal("no reload within 5 s of a SIGHUP")
	}
	stop()
	if swaps.Load() != 1 {
		t.Errorf("%d reloads after one SIGHUP, want 1", swaps.Load())
	}
	if st := r.status(); st != (web.ReloadStatus{Reloads: 1}) {
		t.Errorf("status %+v, want one reload, none failed, none running", st)
	}
}
