package ranking

// FormWords scales the optional clause of a query's words naming the form
// of a session ("talk", "session") typed beside its subject: filler to the
// coordination, which never counts them, they still tell apart the talks
// the subject finds alike. `sponsored sessions` finds the sponsors'
// activities and their sessions, all with "sponsor" in the title; the
// sessions say "session" in their title or their track ("Keynote
// Sessions"). Small, so that a talk saying the form word and little of
// the subject stays below one about it.
const FormWords = 0.3
