package ranking

// NamedSpeaker boosts the whole input as a phrase in a talk's speakers
// when the query names a speaker (two or more capitalised words, each a
// word of speakers' names; search/speaker.go), in place of the proximity
// and agreement clauses of other queries: the talks given by the person
// named rank first, before the talks naming them in a title.
const NamedSpeaker = WholeInSpeakers
