package ranking

// A question's compound ("docker images", "android phone"): two words
// typed side by side that the corpus writes side by side in most talks
// holding both, the first modifying the second. What is asked about is
// the noun: the talks about container images that never say docker
// answer "how can I make my docker images smaller", and a talk saying
// docker without images does not. The modifier, rarer, weighed more in
// the coordination than the noun and ranked first the talks naming it
// alone (search/compound.go).
const (
	// CompoundAdjacentShare is the least share of the talks holding both
	// words (of the first read, as for PairAdjacentShare) saying them
	// side by side, first then second, for the two to be a compound.
	CompoundAdjacentShare = 0.5
	// CompoundRarity is the least ratio of the noun's weight in the
	// coordination to the modifier's: of a rare word and a much commoner
	// one ("python code", "speed up") the rare word names the subject and
	// the other is generic, as of two concepts (BalancedRarity).
	CompoundRarity = 0.5
	// CompoundModifier is the most the modifier weighs in the
	// coordination, as a share of the noun's weight.
	CompoundModifier = 1
)
