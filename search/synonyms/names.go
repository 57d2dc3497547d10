package synonyms

import (
	_ "embed"
	"strings"
)

// The second list of synonyms, names.txt, serves overlap detection, which
// compares talks rather than queries: a talk saying "RL" and one saying
// "reinforcement learning" share a term. Queries need no such list: the
// analyzer makes "KV-cache" and "KV cache" one phrase, and the thesaurus
// (synonyms.txt and what the corpus defines) expands "RL" to its long form.
// The lists are kept apart because one word added to a talk's terms moves
// its overlap scores, which the overlap thresholds were set on, while a
// query synonym only adds alternatives at half weight.

//go:embed names.txt
var namesData string

// Name is one thing written as one word (Name) or as several (Phrases).
type Name struct {
	Name    string
	Phrases []string
}

// Names returns the entries of names.txt, in file order.
func Names() []Name {
	var out []Name
	for _, line := range strings.Split(namesData, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, "|")
		n := Name{Name: strings.TrimSpace(parts[0])}
		for _, p := range parts[1:] {
			if p = strings.TrimSpace(p); p != "" {
				n.Phrases = append(n.Phrases, p)
			}
		}
		out = append(out, n)
	}
	return out
}
