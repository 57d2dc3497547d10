package search

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestParseQuery(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want parsed
	}{
		{"empty", "", parsed{}},
		{"blank", " \t\n ", parsed{}},
		{"words", "KV  cache", parsed{Words: []string{"KV", "cache"}}},
		{"technical tokens stay words", "C++ <1ms torch.compile all-to-all", parsed{Words: []string{"C++", "<1ms", "torch.compile", "all-to-all"}}},
		{"phrase", `"mixture of experts" inference`, parsed{Phrases: []string{"mixture of experts"}, Words: []string{"inference"}}},
		{"quoted single word is a word", `"Monarch"`, parsed{Words: []string{"Monarch"}}},
		{"unbalanced quote runs to the end", `"kv cache`, parsed{Phrases: []string{"kv cache"}}},
		{"lone quote", `"`, parsed{}},
		{"empty phrase", `"" moe`, parsed{Words: []string{"moe"}}},
		{"exclusion", "inference -vllm", parsed{Words: []string{"inference"}, Excludes: []string{"vllm"}}},
		{"excluded phrase", `training -"fault tolerance"`, parsed{Words: []string{"training"}, Excludes: []string{"fault tolerance"}}},
		{"dash alone and double dash are words", "a - b --c", parsed{Words: []string{"a", "-", "b", "--c"}}},
		{"negative number is a word", "-1 loss", parsed{Words: []string{"-1", "loss"}}},
		{"field prefixes", `title:monarch speaker:"Jane Xu" track:inference`, parsed{Fields: []fieldClause{
			{Prefix: "title", Value: "monarch"},
			{Prefix: "speaker", Value: "Jane Xu", Phrase: true},
			{Prefix: "track", Value: "inference"},
		}}},
		{"prefix aliases and case", "Speakers:xu BY:meta", parsed{Fields: []fieldClause{{Prefix: "speaker", Value: "xu"}, {Prefix: "speaker", Value: "meta"}}}},
		{"unknown prefix is a word", "http://x torch:compile", parsed{Words: []string{"http://x", "torch:compile"}}},
		{"bare prefix is a word", "title: monarch", parsed{Words: []string{"title:", "monarch"}}},
		{"excluded field", "-speaker:meta kernels", parsed{Excludes: []string{"meta"}, Words: []string{"kernels"}}},
		{"quote inside a word is dropped at the edges", `monarch" x`, parsed{Words: []string{"monarch", "x"}}},
		{"invalid utf-8", "kv\xffcache", parsed{Words: []string{"kv", "cache"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseQuery(tt.in)
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(parsed{}), cmpopts.IgnoreFields(parsed{}, "raw"), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("parseQuery(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}
