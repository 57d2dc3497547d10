package termvec

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Two documents over a counted vocabulary: the weights follow the formula
// of the package comment, the vectors have unit length, and the cosine and
// shared terms are those of the shared term.
func TestWeighCosineShared(t *testing.T) {
	var v Vocab
	a := v.Count([]Occurrence{{"monarch", TitleWeight}, {"monarch", 1}, {"actor", 1}})
	b := v.Count([]Occurrence{{"monarch", 1}, {"rocm", 1}})
	if diff := cmp.Diff([]int32{2, 1, 1}, v.DF()); diff != "" {
		t.Fatalf("df (-want +got):\n%s", diff)
	}
	a, b = v.Weigh(a, 2, nil), v.Weigh(b, 2, nil)
	// monarch: tf 4, idf ln(1+2/2); actor: tf 1, idf ln(1+2/1).
	wm, wa := (1+math.Log(4))*math.Log(2), math.Log(3)
	norm := math.Hypot(wm, wa)
	want := []float32{float32(wm / norm), float32(wa / norm)}
	if diff := cmp.Diff(want, a.W); diff != "" {
		t.Errorf("weights (-want +got):\n%s", diff)
	}
	bm := math.Log(2) / math.Hypot(math.Log(2), math.Log(3))
	cos := Cosine(a, b)
	if math.Abs(cos-wm/norm*bm) > 1e-6 {
		t.Errorf("cosine %v, want %v", cos, wm/norm*bm)
	}
	if c, second := CosineSecond(a, b); c != cos || second != 0 {
		t.Errorf("CosineSecond = %v, %v; want %v, 0 (one shared term)", c, second, cos)
	}
	sh := Shared(a, b)
	if len(sh) != 1 || v.Term(sh[0].ID) != "monarch" || math.Abs(sh[0].Weight-cos) > 1e-9 {
		t.Errorf("shared %+v, want monarch carrying the whole cosine", sh)
	}
	if self := Cosine(a, a); math.Abs(self-1) > 1e-6 {
		t.Errorf("cosine with itself %v, want 1", self)
	}
}

// A term whose boost is 0 is left out; a boost multiplies; Top orders by
// weight, ties by id (by term for a NewVocab).
func TestBoostAndTop(t *testing.T) {
	v := NewVocab(map[string]int{"b": 2, "a": 2, "z": 1})
	vec := v.CountKnown([]Occurrence{{"a", 1}, {"b", 1}, {"z", 1}, {"unknown", 1}})
	if vec.Len() != 3 {
		t.Fatalf("counted %d terms, want 3 (unknown left out)", vec.Len())
	}
	idZ, _ := v.Lookup("z")
	idB, _ := v.Lookup("b")
	vec = v.Weigh(vec, 4, func(id int32) float64 {
		switch id {
		case idZ:
			return 0
		case idB:
			return 2
		}
		return 1
	})
	var got []string
	for _, s := range Top(vec, 5) {
		got = append(got, v.Term(s.ID))
	}
	if diff := cmp.Diff([]string{"b", "a"}, got); diff != "" {
		t.Errorf("top (-want +got):\n%s", diff)
	}
	// Equal weights: ties by id, which is term order.
	tie := v.Weigh(v.CountKnown([]Occurrence{{"b", 1}, {"a", 1}}), 4, nil)
	if top := Top(tie, 1); v.Term(top[0].ID) != "a" {
		t.Errorf("tie goes to %q, want a", v.Term(top[0].ID))
	}
}

func TestContent(t *testing.T) {
	for term, want := range map[string]bool{
		"monarch": true, "cpp": true, "fp8": true, "kv": true,
		"pytorch": false, "train": false, "gpu": false, "the": false, // filler, typed or analysed
		"x": false, "2.5": false, "2025": false, "don't": false,
	} {
		if got := Content(term); got != want {
			t.Errorf("Content(%q) = %v, want %v", term, got, want)
		}
	}
}

func TestNameWords(t *testing.T) {
	got := NameWords("Monarch runs on ROCm. With vLLM and FlexAttention, Meta ships it: Fast now.")
	want := []string{"ROCm", "vLLM", "FlexAttention", "Meta"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
}
