package analysis

import (
	"slices"
	"strings"
)

// Two word lists serve every part of talksearch that must ignore words: the
// analyzer, query parsing, related talks, paragraph dedup and overlap
// detection. Each kept its own copy before, and the copies drifted.

// stopWords are the function words the analyzer drops from titles,
// abstracts and queries. Words with a technical meaning (up, out, off, over,
// no, not, all, one, any number) are not among them: "scale up",
// "all-to-all" and "no-op" must stay findable, so they are left to scoring.
var stopWords = wordSet(`
	a an and are as at be been being but by can could did do does eg etc for from had has have he
	her here his how i ie if in into is it its me my of on or our ours she should so such than that
	the their theirs them then there these they this those to us was we were what when where which
	while who whom why will with would you your`)

// moreFunctionWords complete stopWords into the English function words (and
// the fragments of contractions): nothing a talk is about, though the
// analyzer keeps them for the reason above. Comparisons of what two texts
// are about (related talks, dedup, overlaps) drop them all.
var moreFunctionWords = wordSet(`
	about above after again against all also am any because before below between both can't doing
	don't down during e.g each even few first further having hers herself him himself however i'll
	i.e isn't it's itself just let let's like may more most much must myself no nor not now off
	often once one only other ourselves out over own s same second some still t themselves three
	through too two under until up upon very via vs we'll we're within without yet you'll you're
	yours yourself yourselves`)

// genericTerms are words nearly every talk at a machine-learning conference
// uses, or words about the talk rather than its subject ("session",
// "attendees", "learn"). Their idf is low anyway, but on a corpus of about a
// hundred talks not low enough: without the list two talks that share only
// "PyTorch", "training" and "GPU" look alike.
var genericTerms = strings.Fields(`
	pytorch torch gpu gpus model models modeling training train trained trains performance
	performant talk talks session sessions keynote lightning sponsored presentation present presents
	presenting presented attendee attendees audience learn learned learning learnings lesson lessons
	speaker speakers join discuss discussion share sharing show shows showing cover covers covering
	introduce introduces introducing demonstrate demonstrates explore explores dive deep walk
	overview insight insights practical practice practices key best latest modern today use uses
	using used user users build builds building built make makes making work works working approach
	approaches challenge challenges solution solutions system systems framework frameworks library
	libraries tool tools tooling open source opensource community communities ecosystem project
	projects help helps enable enables enabling provide provides support supports supported improve
	improves improving efficient efficiently efficiency high highly large scale scales scaling
	scalable fast faster real world across end different various many several based ai ml machine
	hands meet maintainer maintainers birds feather bof poster posters panel demo roadmap multi
	implement implements implemented implementing implementation implementations optimize optimizes
	optimized optimizing optimization optimizations accelerate accelerates accelerated accelerating
	acceleration compute computing data standard standards beyond run runs running design designed
	designing specific specifically include includes including integrate integrates integrating
	feature features featuring develop developing technical technically reduce reduces reducing
	require requires required requirement requirements operate operating time times pattern patterns
	increase increases increasing increasingly leverage leverages leveraging core leave leaves
	leaving move moves moving level levels direct directly achieve achieves achieving focus focuses
	focusing focused become becomes single limit limits limited case cases gap gaps complex aware
	deliver delivers delivering cross multiple ensure ensures ensuring experience experiences common
	commonly eliminate eliminates eliminating result results apply applies applying final finally
	demand demands address addresses addressing handle handles handling emerge emerging bring brings
	bringing get gets getting power powerful local happen happens traditional traditionally come
	comes problem problems remain remains path paths start starts starting gain gains significant
	significantly every actual actually current currently need needs entire entirely combine
	combines combining describe describes toward towards long treat treats keep keeps effort efforts
	wide widely around range typical typically addition additional hard special specialized goal
	goals unlock unlocks write writing lower alternative allow allows better general generally
	behind point points fit fits rather critical progress examine examines care together simple
	simply look looks take takes part parts side whether fundamental fundamentally drive drives
	check explain explains instead understand understanding turn turns along follow follows exist
	existing day days available clear particular particularly benefit benefits natural seamless
	seamlessly massive higher due avoid avoids match journey evolution evolving tackle tackles
	encounter encountered idea ideas able growing grow major crucial essential robust unique novel
	state art variety broad full fully complete easy easily quick quickly difficult important
	importantly example examples recent recently year years future next production productions whole
	highlight highlights extend extends extending step steps cost costs engineering engineer
	engineers team teams goto go goes hood detail details technique techniques strategy strategies
	option options find finding findings way ways thing things lot lots kind kinds set sets new made
	perform well sponsor activity lets done`)

var genericSet = wordSet(strings.Join(genericTerms, " "))

// IsStopWord reports whether the analyzer drops the lower-case word w.
func IsStopWord(w string) bool { return stopWords[w] }

// IsFunctionWord reports whether the lower-case word w is an English
// function word: a stop word, or one of the function words the analyzer
// keeps because they can carry meaning in technical text.
func IsFunctionWord(w string) bool { return stopWords[w] || moreFunctionWords[w] }

// FunctionWords returns every word IsFunctionWord accepts, for callers that
// must run them through the analyzer to compare stems.
func FunctionWords() []string {
	out := make([]string, 0, len(stopWords)+len(moreFunctionWords))
	for _, set := range []map[string]bool{stopWords, moreFunctionWords} {
		for w := range set {
			out = append(out, w)
		}
	}
	slices.Sort(out)
	return out
}

// GenericTerms returns the generic conference words (see genericTerms), a
// fresh slice the caller may keep.
func GenericTerms() []string { return append([]string(nil), genericTerms...) }

func wordSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}
