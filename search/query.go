package search

import (
	"fmt"
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/analysis"
	"github.com/talksearch/talksearch/search/highlight"
	"github.com/talksearch/talksearch/search/ranking"
	"github.com/talksearch/talksearch/search/scan"
	"github.com/talksearch/talksearch/search/syntax"
)

// plan is a syntax.Query query compiled against one snapshot.
type plan struct {
	// q selects and scores the talks; nil means every talk (an empty
	// query, or one made only of a track: filter).
	q query.Query
	// tracks, when non-nil, restricts results to these tracks (from a
	// track: clause); an empty non-nil set matches nothing.
	tracks map[string]bool
	// fixes are the unknown words of the query and their corrections.
	fixes [][2]string
	// synonyms are the expansions that applied, as "MoE → mixture of experts".
	synonyms []string
	// none: the query can match nothing (e.g. only stop words excluded).
	none bool
	// coord holds, per clause of the words' disjunction, the index terms
	// that match it and its weight: what soft coordination counts
	// (ranking.SoftCoord).
	coord []ranking.Clause
	// simplified: the query had more expensive parts than the cost model
	// allows; note says what was searched more simply.
	simplified bool
	note       string
	// locator finds the matched words of the talks q matches, for
	// highlights (locator()).
	locator query.Query
	// required is q without its optional part, optional that part (the
	// should clauses), when q has both: a scan scores the optional part
	// of the best talks only (rescore.go).
	required, optional query.Query
}

// compile turns a syntax.Query query into a Bleve query over the snapshot's
// fields, with corrections and synonyms.
func (s *snapshot) compile(p syntax.Query) plan {
	var pl plan
	var must, should, mustNot []query.Query
	var proximity []query.Query // of should
	var bud budget

	// The parts every talk found must match (or must not) are built
	// first: what they cost is spent before the optional parts (the words
	// beyond the clauses, proximity) get any of the budget of searchers.
	var phraseMust, fieldMust, excludeNot []query.Query
	var asWords []string // phrases matched as their words
	for i, ph := range p.Phrases {
		if i >= maxPhrases {
			bud.plainPhrases = append(bud.plainPhrases, ph)
			asWords = append(asWords, ph)
			continue
		}
		q := s.fieldsQuery(ph, true, 1)
		if !bud.spend(q) {
			bud.costlyPhrases = append(bud.costlyPhrases, ph)
			asWords = append(asWords, ph)
			continue
		}
		phraseMust = append(phraseMust, q)
	}
	for i, fc := range p.Fields {
		if i >= maxPhrases && fc.Prefix != "track" {
			bud.droppedFields = append(bud.droppedFields, fc.Prefix+":"+fc.Value)
			continue
		}
		switch fc.Prefix {
		case "track":
			pl.tracks = s.tracksMatching(fc.Value, pl.tracks)
		case "title":
			fieldMust = append(fieldMust, bud.spent(s.fieldQuery(index.FieldTitle, fc.Value, fc.Phrase, 1)))
		case "abstract":
			fieldMust = append(fieldMust, bud.spent(s.fieldQuery(index.FieldAbstract, fc.Value, fc.Phrase, 1)))
		case "speaker":
			fieldMust = append(fieldMust, bud.spent(s.fieldQuery(index.FieldSpeakers, fc.Value, fc.Phrase, 1)))
		}
	}
	for i, ex := range p.Excludes {
		if i >= maxPhrases {
			bud.droppedExcludes = append(bud.droppedExcludes, ex)
			continue
		}
		excludeNot = append(excludeNot, bud.spent(s.fieldsQuery(ex, strings.Contains(ex, " "), 1)))
	}

	words := s.contentWords(p.Words)
	if len(words) > 0 {
		clauses := make([]query.Query, 0, len(words))
		joins := s.joinedNeighbours(words)
		isContent := map[string]bool{}
		for _, w := range words {
			isContent[w] = true
		}
		synAlts, applied := s.synonymAlternatives(clauseWords(p.Words, words), isContent)
		allCommon := true
		for _, w := range words {
			allCommon = allCommon && s.common(w)
		}
		var commonClauses []query.Query
		var commonTerms []string
		var commonWeight float64
		var parts []wordPart
		altsOf := map[string][]alternative{}
		var commonAlts []alternative
		pl.synonyms = applied
		byName := speakerShaped(words)
		named := byName && s.speakersName(p.Words)
		// A question's words weigh in the coordination by their rarity
		// beyond a common word's (ranking.AskedWeight).
		asked := questionShaped(p.Words)
		weigh := func(alts []alternative, literal int) float64 {
			w := s.clauseWeight(alts, literal)
			if asked {
				w = ranking.AskedWeight(w, s.commonIDF())
			}
			return w
		}
		// A question's common words score as they weigh in the
		// coordination: ranking.AskedFloor of themselves
		// (ranking.AskedCommon).
		commonScale := 1.0
		if asked {
			commonScale = ranking.AskedCommon
		}
		// A query of several concepts, or of two words that the corpus
		// says are two (pair.go): its words' fields combine as
		// scan.Fields does.
		two := s.twoConcepts(p.Words, words, joins)
		several := len(words) >= ranking.CappedFieldsWords || two
		// Bleve applies no boost of a disjunction: the clause of the
		// common words is scaled by the share of them a talk matches
		// unless their terms carry the number of common words.
		nCommon := 0
		for _, w := range words[:min(len(words), maxWordClauses)] {
			if !allCommon && s.common(w) {
				nCommon++
			}
		}
		// A description of several concepts (ranking.DescribedWords rarer
		// words, not asked): a title naming one of them names one part of
		// it (ranking.DescribedTitle).
		title := 1.0
		if !asked && min(len(words), maxWordClauses)-nCommon >= ranking.DescribedWords {
			title = ranking.DescribedTitle
		}
		for i, w := range words {
			if i >= maxWordClauses {
				bud.plainWords = append(bud.plainWords, words[i:]...)
				break
			}
			alts := s.literal(w, &bud)
			nLiteral := len(alts)
			// "dual pipe" finds DualPipe: the joined word stands for both.
			for _, j := range []int{i - 1, i} {
				if j >= 0 && joins[j] != "" {
					alts = append(alts, alternative{text: joins[j], weight: ranking.Joined})
				}
			}
			// Expansions never drift (drift.go): a name typed without its
			// accents is that name, not a typo to correct or complete.
			folded := s.folds(w)
			for _, f := range folded {
				alts = append(alts, alternative{text: f, weight: ranking.Literal})
				pl.synonyms = append(pl.synonyms, w+" → "+sameCase(f, w))
			}
			switch {
			case len(folded) > 0 || !s.mayCorrect(w):
			case bud.corrections >= maxCorrections:
				bud.uncorrected = append(bud.uncorrected, w)
			default:
				bud.corrections++
				if fix := s.keepExpansions(w, s.corrections(w, typoEdits(len(words))), byName, true); len(fix) > 0 {
					pl.fixes = append(pl.fixes, [2]string{w, fix[0]})
					for _, f := range fix {
						alts = append(alts, alternative{text: f, weight: ranking.Correction})
					}
				}
			}
			for _, f := range s.keepExpansions(w, s.forms(w), false, true) {
				alts = append(alts, alternative{text: f, weight: ranking.Correction})
				pl.synonyms = append(pl.synonyms, w+" → "+f)
			}
			for _, v := range s.variants(w) {
				alts = append(alts, v.alt)
				if v.note != "" {
					pl.synonyms = append(pl.synonyms, v.note)
				}
			}
			if i == len(words)-1 && len(folded) == 0 && strings.HasSuffix(strings.ToLower(p.Raw), strings.ToLower(w)) {
				// The word being typed: "monr" finds Monarch.
				var texts []string
				for _, c := range s.completions(w) {
					texts = append(texts, c.text)
				}
				for _, c := range s.keepExpansions(w, texts, byName, false) {
					alts = append(alts, alternative{text: c, weight: ranking.Completion})
				}
			}
			alts = distinctAlternatives(append(alts, synAlts[w]...))
			if s.common(w) && !allCommon {
				commonClauses = append(commonClauses, bud.spent(s.scaledWordClause(alts, float64(nCommon)*commonScale, title, several)))
				commonAlts = append(commonAlts, alts...)
				commonTerms = append(commonTerms, s.altTerms(alts)...)
				commonWeight = max(commonWeight, weigh(alts, nLiteral))
				continue
			}
			q := s.scaledWordClause(alts, 1, title, several)
			altsOf[w] = alts
			c := ranking.Clause{Terms: s.altTerms(alts), Weight: weigh(alts, nLiteral)}
			// A described word no talk has, nor any of its alternatives
			// (ranking.AbsentPower); a question's are weighed otherwise.
			c.Absent = c.Weight == 0 && !asked
			parts = append(parts, wordPart{word: w, q: q, coord: c, postings: s.postingsOf(q)})
		}
		limit := wordWork(len(words))
		parts = s.affordableClauses(parts, limit, &bud)
		if plain := s.affordableWords(&bud); len(plain) > 0 {
			// Beyond the budget of clauses, the words count together as
			// one, matched as they are.
			alts := []alternative{{text: strings.Join(plain, " "), weight: ranking.Literal}}
			q := s.scaledWordClause(alts, 1, title, several)
			part := wordPart{word: strings.Join(plain, " "), q: q, coord: ranking.Clause{Terms: s.altTerms(alts), Weight: weigh(alts, 1)}, postings: s.postingsOf(q)}
			if work(parts, part) <= limit {
				parts = append(parts, part)
			} else {
				bud.costlyWords = append(bud.costlyWords, plain...)
			}
		}
		if asked {
			// A compound's modifier weighs no more than its noun
			// (compound.go).
			s.askedCompounds(p.Words, parts)
		}
		var concepts [][]alternative
		var conceptWeights []float64 // their weights in the coordination
		for _, p := range parts {
			clauses = append(clauses, p.q)
			pl.coord = append(pl.coord, p.coord)
			if alts, ok := altsOf[p.word]; ok {
				concepts = append(concepts, alts)
				conceptWeights = append(conceptWeights, p.coord.Weight)
			}
		}
		if len(commonAlts) > 0 {
			// The common words, one concept together, as in the
			// coordination.
			concepts = append(concepts, commonAlts)
			conceptWeights = append(conceptWeights, commonWeight)
		}
		if len(commonClauses) > 0 {
			// Common words ("running", "training") together count as one
			// word: a talk with the rarer words but not all the common
			// ones is hardly missing anything, and a talk with only
			// common words still matches. In a large corpus they would
			// match most of it, which every facet count then pays for:
			// there they only rank the talks the rarer words find. A talk
			// with one of them scores that word's clause whole: each
			// carries the number of common words (nCommon), which the
			// disjunction's coordination divides by.
			cq := query.NewDisjunctionQuery(commonClauses)
			if s.onePass() {
				clauses = append(clauses, cq)
				pl.coord = append(pl.coord, ranking.Clause{Terms: commonTerms, Weight: commonWeight})
			} else {
				should = append(should, cq)
			}
		}
		// Terms the talks use for what several of the words say
		// (assoc.go): optional, never counted by the coordination. Only
		// for words the corpus does not have as typed: a word it has is
		// never expanded into others (drift.go).
		var ranked []string
		for _, w := range words[:min(len(words), maxWordClauses)] {
			if !s.common(w) && s.vocab.df[strings.ToLower(w)] == 0 {
				ranked = append(ranked, w)
			}
		}
		for _, e := range s.associatedTerms(ranked, pl.coord) {
			if q := s.assocQuery(e.term); bud.spend(q) {
				should = append(should, q)
				pl.synonyms = append(pl.synonyms, s.assocNote(e))
			}
		}
		// The coordination factor of a disjunction (matched clauses /
		// clauses) is what ranks talks with every word above talks with
		// some of them.
		if two && len(clauses) == 2 && balanced(pl.coord) {
			// Two concepts about as rare: the talks saying both evenly
			// first (pair.go).
			must = append(must, scan.NewConcepts(clauses))
		} else {
			must = append(must, query.NewDisjunctionQuery(clauses))
		}
		switch {
		case len(words) < 2:
		case bud.searchers > maxSearchers:
			// Nothing is left for them: not even built.
			bud.noProximity = true
		default:
			near := s.proximityClauses
			if named {
				near = s.namedClauses
			}
			for _, q := range near(p.Words[:min(len(p.Words), maxProximityWords)], words, s.onePass()) {
				if bud.spend(q) {
					should = append(should, q)
					proximity = append(proximity, q)
				} else {
					bud.noProximity = true
				}
			}
		}
		// After the proximity phrases, which the budget serves first: an
		// agreement left out is not said, its words ranked as they are.
		var agree []query.Query
		if !named {
			agree = append(s.agreementClauses(concepts), s.questionAgreement(p.Words, concepts, conceptWeights)...)
		}
		for _, q := range agree {
			if bud.spend(q) {
				should = append(should, q)
			}
		}
		// The form words typed beside the subject (form.go).
		if q := s.formClause(p.Words, words); q != nil && bud.spend(q) {
			should = append(should, q)
		}
	}
	must = append(must, phraseMust...)
	must = append(must, fieldMust...)
	mustNot = append(mustNot, excludeNot...)
	for _, ph := range asWords {
		// Beyond the budget a phrase is its words, any of which may
		// match, while the budget of searchers lasts.
		q := s.fieldsQuery(ph, false, 1)
		if !bud.spend(q) {
			bud.droppedPhrases = append(bud.droppedPhrases, ph)
			continue
		}
		should = append(should, q)
	}
	pl.simplified, pl.note = bud.explain()
	for _, q := range must {
		if isNone(disjunctsOf(q)) {
			// A part every talk must match that no talk can (prune.go).
			pl.none = true
			return pl
		}
	}
	if isNone(anyOf(should)) {
		should = nil
	}
	if len(must) == 0 && len(mustNot) == 0 {
		if len(p.Words)+len(p.Phrases) > 0 && pl.tracks == nil {
			// Only filler words ("the", "how to"): nothing to look for.
			pl.none = true
		}
		return pl
	}
	required := len(must) > 0
	if !required {
		must = append(must, query.NewMatchAllQuery())
	}
	b := query.NewBooleanQuery(must, nil, mustNot)
	if len(should) > 0 {
		// Bleve scales a disjunction by the share of its clauses that
		// matched; boosting by their number undoes that for one match.
		sq := query.NewDisjunctionQuery(should)
		sq.SetBoost(float64(len(should)))
		b.AddShould(sq)
		if required {
			pl.required, pl.optional = query.NewBooleanQuery(must, nil, mustNot), sq
		}
	}
	pl.q = b
	if !s.onePass() {
		// A one-pass search has its matched words from the pass.
		pl.locator = locator(must, should, proximity)
	}
	return pl
}

// locator is the query whose matches give a page's talks their matched
// words (scanner.locate): each term and phrase of the query's required and
// optional parts in a highlighted field, once, as one flat disjunction.
// The proximity phrases are left out (their words are the word clauses'),
// and so are exclusions, the track and room names, the nesting and the
// conjunctions: the page's talks match the query already, and what is
// wanted of them is every matched word's position. Phrase searchers read
// the positions of every talk they pass, so advancing the whole query
// to the page would read positions at talks the page does not show.
func locator(must, should, proximity []query.Query) query.Query {
	var leaves []query.Query
	seen := map[string]bool{}
	var walk func(q query.Query)
	walk = func(q query.Query) {
		if slices.Contains(proximity, q) {
			return
		}
		var key string
		switch q := q.(type) {
		case *query.DisjunctionQuery:
			for _, d := range q.Disjuncts {
				walk(d)
			}
			return
		case scan.Fields:
			for _, d := range q.Disjuncts {
				walk(d)
			}
			return
		case scan.Concepts:
			for _, d := range q.Disjuncts {
				walk(d)
			}
			return
		case *query.ConjunctionQuery:
			for _, c := range q.Conjuncts {
				walk(c)
			}
			return
		case *query.BooleanQuery:
			walk(q.Must)
			walk(q.Should)
			return
		case *query.TermQuery:
			key = q.FieldVal + "\x00" + q.Term
			if !slices.Contains(highlight.Fields, q.FieldVal) {
				return
			}
		case *query.MultiPhraseQuery, scan.Phrase:
			p := scan.MultiPhrase(q)
			key = p.FieldVal + "\x00" + fmt.Sprint(p.Terms)
			if !slices.Contains(highlight.Fields, p.FieldVal) {
				return
			}
		default:
			// Match-all, match-none, nil: no words.
			return
		}
		if !seen[key] {
			seen[key] = true
			leaves = append(leaves, q)
		}
	}
	for _, q := range append(slices.Clone(must), should...) {
		walk(q)
	}
	return anyOf(leaves)
}

// altTerms returns the index terms of a word's alternatives.
func (s *snapshot) altTerms(alts []alternative) []string {
	var out []string
	for _, a := range alts {
		out = append(out, s.analyze(a.text)...)
	}
	return out
}

// clauseWeight is the weight of a word's clause in the coordination: the
// rarity (idf) of the word as typed (alts[:literal]: its form the index
// knows), not of its alternatives. A rare alternative (the joined
// "opensource" of "open source", a correction, a completion) must not
// make a common word weigh as a rare one, nor a talk matching the common
// form earn the rare one's weight. Terms no talk has count for nothing:
// a typo's own spelling is a term of no talk, and would otherwise weigh
// most. A word none of whose literal terms any talk has (a typo) weighs
// what its alternatives do.
func (s *snapshot) clauseWeight(alts []alternative, literal int) float64 {
	var w float64
	for _, t := range s.altTerms(alts[:literal]) {
		if s.dict[t] == 0 {
			continue
		}
		w = max(w, s.idf(t))
	}
	if w > 0 {
		return w
	}
	for _, t := range s.altTerms(alts) {
		if s.dict[t] == 0 {
			continue
		}
		w = max(w, s.idf(t))
	}
	return w
}

// commonIDF is the rarity (idf) of a word in ranking.CommonShare of the
// talks: the rarest a common word is.
func (s *snapshot) commonIDF() float64 {
	n := uint64(len(s.byTime))
	return ranking.IDF(n, uint64(ranking.CommonShare*float64(n)))
}

// idf is the inverse document frequency of an index term in the corpus.
func (s *snapshot) idf(term string) float64 {
	return ranking.IDF(uint64(len(s.byTime)), s.dict[term])
}

// alternative is one way of matching a word of the query.
type alternative struct {
	text   string
	weight float64
	phrase bool
}

// distinctAlternatives keeps the first of alternatives that match alike
// (the same text but for case, both phrases or both not), with the largest
// weight of them, in order. A word's alternatives come from several
// sources that can agree: "Monrach" is corrected to "monarch" and, as the
// word being typed, completed to it too. Twice in a word's clause, an
// alternative counted four times over (each match scores, and the clause's
// boost and coordination follow the number of alternatives), so a misspelt
// last word outweighed the rest of the query.
func distinctAlternatives(alts []alternative) []alternative {
	out := alts[:0]
	for _, a := range alts {
		i := slices.IndexFunc(out, func(b alternative) bool {
			return b.phrase == a.phrase && strings.EqualFold(b.text, a.text)
		})
		if i < 0 {
			out = append(out, a)
			continue
		}
		out[i].weight = max(out[i].weight, a.weight)
	}
	return out
}

// wordClause matches one word of the query, or any of its alternatives, in
// any field. Per field, the alternatives form a disjunction boosted by their
// number, so a word with three alternatives weighs what a word without any
// does (Bleve's coordination factor would otherwise divide it). The fields
// combine as a Bleve disjunction does, as in a query of fewer than
// ranking.CappedFieldsWords words.
func (s *snapshot) wordClause(alts []alternative) query.Query {
	return s.scaledWordClause(alts, 1, 1, false)
}

// scaledWordClause is wordClause with every boost times scale and the
// title's times title besides, its fields combined as scan.Fields does
// when several (the query has several concepts).
func (s *snapshot) scaledWordClause(alts []alternative, scale, title float64, several bool) query.Query {
	perField := make([]query.Query, 0, len(ranking.Fields))
	var room [8]analysed
	analyses := s.appendAnalyses(room[:0], alts)
	for _, fw := range ranking.Fields {
		qs := make([]query.Query, 0, len(alts))
		for i, a := range alts {
			boost := scale * fw.Weight * a.weight * float64(len(alts)) * ranking.FieldCoord()
			if fw.Field == index.FieldTitle {
				boost *= title
			}
			qs = append(qs, s.fieldQueryOf(fw.Field, analyses[i], a.phrase, boost))
		}
		perField = append(perField, anyOf(qs))
	}
	if q := anyOf(perField); isNone(q) || !several {
		return q
	}
	return scan.NewFields(perField)
}

// literal is how a word matches as typed. A word the analyzer splits into
// several terms (`KV-cache`, `torch.compile`, `all-to-all`) is matched as a
// phrase of them; its terms one by one count far less, or `all-to-all`
// would find every talk saying "all".
func (s *snapshot) literal(w string, b *budget) []alternative {
	w = s.knownForm(w)
	if s.compound(w) {
		if b.compounds >= maxCompounds {
			// Beyond the budget, its terms apart, as plain words.
			b.plainCompounds = append(b.plainCompounds, w)
			return []alternative{{text: w, weight: ranking.Literal}}
		}
		b.compounds++
		if !s.onePass() {
			// In a large corpus the parts apart ("torch") match most of
			// it, for a tenth of a word's weight: not worth the cost.
			return []alternative{{text: w, weight: ranking.Literal, phrase: true}}
		}
		return []alternative{{text: w, weight: ranking.Literal, phrase: true}, {text: w, weight: ranking.CompoundPart}}
	}
	return []alternative{{text: w, weight: ranking.Literal}}
}

// joinedNeighbours returns, for each word but the last, the word it makes
// with the next one when the corpus uses that joined word ("torch titan" →
// "torchtitan"), else "".
func (s *snapshot) joinedNeighbours(words []string) []string {
	out := make([]string, len(words))
	var room [64]byte
	for i := 0; i+1 < len(words); i++ {
		// Looked up in a buffer of the stack, made a string only when the
		// corpus has it: most pairs of a long query make no word.
		b := append(append(room[:0], words[i]...), words[i+1]...)
		if !lowerASCII(b) {
			if j := strings.ToLower(words[i] + words[i+1]); s.vocab.df[j] > 0 {
				out[i] = j
			}
			continue
		}
		if s.vocab.df[string(b)] > 0 {
			out[i] = string(b)
		}
	}
	return out
}

// lowerASCII lowers b in place, as strings.ToLower would, and says so; it
// says false, leaving b to strings.ToLower, when b is not all ASCII.
func lowerASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return true
}

// common says whether a word is in more than commonShare of the talks.
func (s *snapshot) common(w string) bool {
	var df uint64
	for _, t := range s.analyze(s.knownForm(w)) {
		df = max(df, s.dict[t])
	}
	return float64(df) > ranking.CommonShare*float64(len(s.byTime))
}

// knownForm returns w, or the form of w the index knows when w is an
// acronym's plural typed in lower case ("llms" for LLMs, "gpus"): the
// analyzer recognises such a plural by its capitals.
func (s *snapshot) knownForm(w string) string {
	if len(w) < 3 || w[len(w)-1] != 's' || s.knownTerms(w) {
		return w
	}
	if up := strings.ToUpper(w[:len(w)-1]) + "s"; s.knownTerms(up) {
		return up
	}
	return w
}

// compound says whether w becomes terms at more than one position.
func (s *snapshot) compound(w string) bool {
	ts := s.tokens(w)
	for _, t := range ts {
		if t.pos != ts[0].pos {
			return true
		}
	}
	return false
}

// proximityClauses reward talks where the query's words stand together: the
// whole input as typed as a phrase, and each pair of neighbouring content
// words. Phrases in abstracts are what a search of a large corpus spends
// most on (every talk with the words is checked for their positions), so
// with all false only titles are checked.
func (s *snapshot) proximityClauses(typed, content []string, all bool) []query.Query {
	var qs []query.Query
	var whole analysed
	if len(typed) == 1 {
		whole = s.analysis(typed[0]) // a word: the cache's
	} else {
		whole = s.analyseText(strings.Join(typed, " "))
	}
	qs = append(qs, s.fieldQueryOf(index.FieldTitle, whole, true, ranking.WholeInTitle),
		// A room's or a track's name typed whole ("Master Stage", not
		// "Junior Stage" with a "master" in the abstract).
		s.fieldQueryOf(index.FieldRoomText, whole, true, ranking.WholeInTitle),
		s.fieldQueryOf(index.FieldTrackText, whole, true, ranking.WholeInTitle))
	if all {
		qs = append(qs,
			s.fieldQueryOf(index.FieldAbstract, whole, true, ranking.WholeInAbstract),
			s.fieldQueryOf(index.FieldSpeakers, whole, true, ranking.WholeInSpeakers),
		)
	}
	isContent := map[string]bool{}
	for _, w := range content {
		isContent[w] = true
	}
	pairs := 0
	for i := 0; i+1 < len(typed) && pairs < 6; i++ {
		if !isContent[typed[i]] || !isContent[typed[i+1]] || len(typed) == 2 {
			continue
		}
		pair := s.analyseText(typed[i] + " " + typed[i+1])
		qs = append(qs, s.fieldQueryOf(index.FieldTitle, pair, true, ranking.PairInTitle))
		if all {
			qs = append(qs, s.fieldQueryOf(index.FieldAbstract, pair, true, ranking.PairInAbstract))
		}
		pairs++
	}
	return qs
}

// fieldsQuery matches text in the title, abstract, speakers, track or room.
func (s *snapshot) fieldsQuery(text string, phrase bool, boost float64) query.Query {
	qs := make([]query.Query, 0, len(ranking.Fields))
	a := s.analysis(text)
	for _, fw := range ranking.Fields {
		qs = append(qs, s.fieldQueryOf(fw.Field, a, phrase, boost*fw.Weight*ranking.FieldCoord()))
	}
	return anyOf(qs)
}

// fieldQuery matches text in one field, analysed as the field is: as a
// phrase, or as words of which any may match.
func (s *snapshot) fieldQuery(field, text string, phrase bool, boost float64) query.Query {
	return s.fieldQueryOf(field, s.analysis(text), phrase, boost)
}

// fieldQueryOf is fieldQuery of the text analysed as a: a text looked for
// in several fields is analysed once, not looked up in the shared analysis
// cache again for each field.
func (s *snapshot) fieldQueryOf(field string, a analysed, phrase bool, boost float64) query.Query {
	if phrase {
		return s.phraseQueryOf(field, a.tokens, boost)
	}
	return s.termsQueryOf(field, a.terms, boost)
}

// contentWords drops the words that carry no meaning for a search: those
// the analyzer removes entirely, question filler ("how", "what", "I") and
// what the talks do without (absent). If that would leave nothing, the
// analyzer's verdict alone decides.
func (s *snapshot) contentWords(words []string) []string {
	var kept, filler []string
	for i, w := range words {
		if len(s.analyze(w)) == 0 {
			continue
		}
		if absent(words, i) {
			filler = append(filler, w)
			continue
		}
		if isQueryFiller(strings.ToLower(w)) {
			filler = append(filler, w)
			continue
		}
		kept = append(kept, w)
	}
	if len(kept) == 0 {
		return filler
	}
	return kept
}

// absent says whether words[i] is "without" or the word it governs (the
// next word not a stop word) in a query of more than two words: "phone
// without google" asks for phones, and the talks about them need not name
// what they do without; counted by the coordination, the word made talks
// about Google outrank those about free phones. A query of two words
// ("without google") is all there is to look for.
func absent(words []string, i int) bool {
	is := func(j int) bool { return j >= 0 && j < len(words) && strings.EqualFold(words[j], "without") }
	if len(words) <= 2 {
		return false
	}
	if is(i) {
		return i+1 < len(words)
	}
	j := i - 1
	for j >= 0 && analysis.IsStopWord(strings.ToLower(words[j])) {
		j--
	}
	return is(j)
}

// clauseWords are the typed words up to the last content word that gets
// a clause of its own (maxWordClauses), and a few beyond for a synonym
// of several words that begins there: the synonyms of later words would
// go unused, and looking them up in a 400-character query costs what
// the rest of its plan does.
func clauseWords(typed, content []string) []string {
	if len(content) <= maxWordClauses {
		return typed
	}
	i := 0
	for j, w := range typed {
		if i < len(content) && w == content[i] {
			i++
		}
		if i == maxWordClauses {
			return typed[:min(len(typed), j+1+synonymSpan)]
		}
	}
	return typed
}

// synonymSpan is how many words beyond its first a synonym clauseWords
// keeps may span.
const synonymSpan = 3

// questionWords are words of questions and requests that say nothing about
// the topic ("how do I", "anyone using", "best talk about"). With the
// analyzer's stop words they are the query's filler; the analyzer keeps its
// stop words when a text has nothing else, as a single query word does.
var questionWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`about any get way ways talk talks session sessions anyone someone
		new latest recent best good know need want like use using used`) {
		m[w] = true
	}
	return m
}()

// isQueryFiller reports whether the lower-case word w is filler in a query.
func isQueryFiller(w string) bool { return analysis.IsStopWord(w) || questionWords[w] }

// tracksMatching returns the tracks whose name contains v, ignoring case,
// or whose folded name contains v's (facetkey.go: "track:mysql & friends"
// finds "MySQL and Friends"), intersected with prev when prev is non-nil.
// The tracks are the facet's values, which stand for all their spellings.
func (s *snapshot) tracksMatching(v string, prev map[string]bool) map[string]bool {
	out := map[string]bool{}
	lv, fv := strings.ToLower(v), foldTrack(v)
	for k, t := range s.shown[trackFacet] {
		if (strings.Contains(strings.ToLower(t), lv) || fv != "" && strings.Contains(k, fv)) && (prev == nil || prev[t]) {
			out[t] = true
		}
	}
	return out
}

// token is a term of analysed text and its position.
type token struct {
	term string
	pos  int
}

// analysed is the analysis of one text: its tokens, and their terms alone
// (what analyze returns), both kept in the snapshot's tokenCache so that
// neither is made again for each look at a word.
type analysed struct {
	tokens []token
	terms  []string
}

// tokens returns the terms of text as the text fields (title, abstract,
// speakers: one analyzer) make them. Query words repeat across searches and
// a search looks at each several times, so the analysis is cached
// (snapshot.tokenCache, bounded in bytes). The tokens are shared: read
// them, do not change them.
func (s *snapshot) tokens(text string) []token { return s.analysis(text).tokens }

// analysis is the cached analysis of text (tokens).
func (s *snapshot) analysis(text string) analysed {
	if v, ok := s.tokenCache.get(text); ok {
		return v
	}
	a := s.analyseText(text)
	s.tokenCache.put(text, a)
	return a
}

// analyseText is the analysis of text, made without the cache: for the
// texts one query alone has (its whole input, its pairs of words), which
// a lookup would miss and an insertion would only crowd the words out.
// A query asked again is answered by the result and matches caches
// before it is compiled again.
func (s *snapshot) analyseText(text string) analysed {
	ts := s.analyzer.Analyze([]byte(text))
	// The terms are substrings of one string: one allocation for all of
	// them, not one each (a long query has dozens).
	n := 0
	for _, t := range ts {
		n += len(t.Term)
	}
	buf := make([]byte, 0, n)
	for _, t := range ts {
		buf = append(buf, t.Term...)
	}
	all := string(buf)
	a := analysed{tokens: make([]token, len(ts)), terms: make([]string, len(ts))}
	at := 0
	for i, t := range ts {
		term := all[at : at+len(t.Term)]
		at += len(t.Term)
		a.tokens[i] = token{term, t.Position}
		a.terms[i] = term
	}
	return a
}

// appendAnalyses appends to out the analysis of each alternative's text,
// in order.
func (s *snapshot) appendAnalyses(out []analysed, alts []alternative) []analysed {
	for _, a := range alts {
		out = append(out, s.analysis(a.text))
	}
	return out
}

// analyze returns the index terms of text. The slice is shared (the
// snapshot's tokenCache): read it, do not change it; its capacity is its
// length, so an append copies it.
func (s *snapshot) analyze(text string) []string { return s.analysis(text).terms }

// termsQuery matches any of the terms of text in one field: what Bleve's
// match query does, without analysing the text again, and with a term the
// field lacks as a match-none clause (prune.go).
func (s *snapshot) termsQuery(field, text string, boost float64) query.Query {
	return s.termsQueryOf(field, s.analyze(text), boost)
}

// termsQueryOf is termsQuery of the text whose terms are terms.
func (s *snapshot) termsQueryOf(field string, terms []string, boost float64) query.Query {
	qs := make([]query.Query, 0, len(terms))
	for _, t := range terms {
		if !s.hasTerm(field, t) {
			qs = append(qs, matchNone())
			continue
		}
		q := query.NewTermQuery(t)
		q.SetField(field)
		q.SetBoost(boost)
		qs = append(qs, q)
	}
	return anyOf(qs)
}
