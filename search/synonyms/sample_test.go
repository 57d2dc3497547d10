package synonyms_test

import (
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search/synonyms"
)

func TestMinedStep(t *testing.T) {
	for n, want := range map[int]int{0: 1, 73: 1, 11_262: 1, 100_000: 1, 100_001: 2, 200_000: 2, 300_000: 3, 1_000_000: 10, 1_000_001: 11} {
		if got := synonyms.MinedStep(n); got != want {
			t.Errorf("MinedStep(%d) = %d, want %d", n, got, want)
		}
	}
}

// TestMiningSamplesALargeCorpus: past MaxMinedTalks talks, only every
// MinedStep-th talk is mined. Here that is every second: "k8s" is written
// beside Kubernetes in ten of them, "kube" only in talks between.
func TestMiningSamplesALargeCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("a corpus of MaxMinedTalks talks is skipped with -short")
	}
	talks := make([]index.Talk, synonyms.MaxMinedTalks+1)
	for i := range talks {
		title := "Talk number " + strconv.Itoa(i)
		switch {
		case i < 20 && i%2 == 0:
			title = "Running k8s: Kubernetes at home, part " + strconv.Itoa(i)
		case i < 400 && i%2 == 1:
			title = "Running kube: Kubernetes at work, part " + strconv.Itoa(i)
		}
		talks[i] = index.Talk{ID: "t" + strconv.Itoa(i), Title: title}
	}
	var got []string
	for _, a := range synonyms.MineAliases(talks) {
		got = append(got, a.String())
	}
	want := []string{"k8s → Kubernetes (both in 10 talks; k8s in 10, Kubernetes in 10)"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("aliases (-want +got):\n%s", d)
	}
	// One talk fewer is mined whole, and "kube" is found as well.
	got = got[:0]
	for _, a := range synonyms.MineAliases(talks[:synonyms.MaxMinedTalks]) {
		got = append(got, a.String())
	}
	want = []string{"k8s → Kubernetes (both in 10 talks; k8s in 10, Kubernetes in 210)",
		"kube → Kubernetes (both in 200 talks; kube in 200, Kubernetes in 210)"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("aliases of the corpus mined whole (-want +got):\n%s", d)
	}
}
