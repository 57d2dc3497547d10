package overlap

// Near-duplicates are told apart from topical pairs by word shingles, not
// by the weighted terms: an edited copy keeps most of its word sequences,
// while two talks on the same topic share words but rarely runs of three.
//
// The candidates are the pairs the term index finds: an edited copy shares
// nearly all its terms (cosine at least nearDupCos), so it is always among
// them, and a MinHash/LSH pass of its own would only find pairs again.
// The shingles are analysis.Shingles, the ones ingestion dedups paragraphs by.
// nearDupMin is the shingle resemblance (Jaccard) from which two texts are
// the same text edited; nearDupContainment catches a text that is mostly a
// copy of a longer one (an abstract with a paragraph added). nearDupCos is
// the term cosine they must also reach: a template filled in for two
// subjects ("Meet the vLLM Maintainers", "Meet the Ray Maintainers") shares
// its wording but not its distinctive terms, and is not one submission.
const (
	nearDupMin         = 0.3
	nearDupContainment = 0.8
	nearDupCos         = 0.5
)

// resemblance returns the Jaccard index of two sorted shingle sets and the
// share of the smaller set found in the larger one.
func resemblance(a, b []uint64) (jaccard, containment float64) {
	if len(a) == 0 || len(b) == 0 {
		return 0, 0
	}
	inter := 0
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			inter++
			i++
			j++
		}
	}
	union := len(a) + len(b) - inter
	return float64(inter) / float64(union), float64(inter) / float64(min(len(a), len(b)))
}
