package syntax

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestParseQuery(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Query
	}{
		{"empty", "", Query{}},
		{"blank", " \t\n ", Query{}},
		{"words", "KV  cache", Query{Words: []string{"KV", "cache"}}},
		{"technical tokens stay words", "C++ <1ms torch.compile all-to-all", Query{Words: []string{"C++", "<1ms", "torch.compile", "all-to-all"}}},
		{"phrase", `"mixture of experts" inference`, Query{Phrases: []string{"mixture of experts"}, Words: []string{"inference"}}},
		{"quoted single word is a word", `"Monarch"`, Query{Words: []string{"Monarch"}}},
		{"unbalanced quote runs to the end", `"kv cache`, Query{Phrases: []string{"kv cache"}}},
		{"lone quote", `"`, Query{}},
		{"empty phrase", `"" moe`, Query{Words: []string{"moe"}}},
		{"exclusion", "inference -vllm", Query{Words: []string{"inference"}, Excludes: []string{"vllm"}}},
		{"excluded phrase", `training -"fault tolerance"`, Query{Words: []string{"training"}, Excludes: []string{"fault tolerance"}}},
		{"dash alone and double dash are words", "a - b --c", Query{Words: []string{"a", "-", "b", "--c"}}},
		{"negative number is a word", "-1 loss", Query{Words: []string{"-1", "loss"}}},
		{"field prefixes", `title:monarch speaker:"Jane Xu" track:inference`, Query{Fields: []Field{
			{Prefix: "title", Value: "monarch"},
			{Prefix: "speaker", Value: "Jane Xu", Phrase: true},
			{Prefix: "track", Value: "inference"},
		}}},
		{"prefix aliases and case", "Speakers:xu BY:meta", Query{Fields: []Field{{Prefix: "speaker", Value: "xu"}, {Prefix: "speaker", Value: "meta"}}}},
		{"unknown prefix is a word", "http://x torch:compile", Query{Words: []string{"http://x", "torch:compile"}}},
		{"bare prefix is a word", "title: monarch", Query{Words: []string{"title:", "monarch"}}},
		{"excluded field", "-speaker:meta kernels", Query{Excludes: []string{"meta"}, Words: []string{"kernels"}}},
		{"quote inside a word is dropped at the edges", `monarch" x`, Query{Words: []string{"monarch", "x"}}},
		{"invalid utf-8", "kv\xffcache", Query{Words: []string{"kv", "cache"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Parse(tt.in)
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(Query{}), cmpopts.IgnoreFields(Query{}, "Raw"), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Parse(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}
