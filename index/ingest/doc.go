// Package ingest reads the seed dumps into talks: the readers of each
// source format, dedup, and the talks' ids. Load is the entry point.
//
// Load reads every seed file, its format detected by content: the
// structured exports (pentabarf/frab XML, frab and pretalx JSON, iCalendar,
// JSON Lines, CSV; see Formats and the README's "Load your own
// conference") through their readers; of text files, one with session
// blocks ("HH:MM CEST", a title line, a date line) is a schedule page, any
// other with prose paragraphs is an abstract dump. Empty, binary,
// unparsable and structureless files become warnings, and the rest still
// ingests.
//
// ParseSched makes one Talk per session block. Title and speakers share one
// line, "TITLE - SPEAKERS", and both titles and affiliations contain " - ",
// so the split is the first " - " followed by a speaker named in the
// block's Speakers section (names compared without case or accents and
// within a small edit distance, since the two spellings differ). Speakers
// are read from the title line ("A & B, Org", groups separated by ";",
// "Name, Role, Org") in its order and spelling; a session whose title names
// no one (Meet the … Maintainers) takes them from the Speakers section.
// The abstract is what comes between the room line and "Speakers" (or the
// closing date line), without the sponsor lines and data-sharing notice;
// bios, slide files and the sidebar are never read as abstract text.
// Times are in the zone the page states (CEST, UTC+2, for the seeds) on
// the session's own date line.
//
// ParseAbstracts cuts a dump into blank-line separated paragraphs (a line
// break inside a sentence is a hard wrap and becomes a space). The dumps
// separate talks by a blank line too, so Load splits them in two passes
// per paragraph, in file order:
//
//  1. Match: a paragraph whose three-word shingles are at least 60%
//     contained in the abstract of a known talk (every schedule talk, and
//     the abstract-only talks of earlier dumps) belongs to that talk; the
//     talk gains the file as a source and the merge is reported. Text is
//     compared folded (case, accents, quotes, dashes, spaces, line breaks),
//     so near-duplicates match.
//  2. Group: the other paragraphs form talks by continuity (see
//     merger.continues). A paragraph continues the talk before it when that
//     talk's last paragraph ends with ":" or is a "TLDR:" summary, when it
//     cannot begin an abstract ("Finally", "Attendees", "Results:", "The
//     core of the talk" …), when the talk so far is a short lead-in, or when
//     it shares enough rare terms with it (fewer if it opens with "We",
//     "Our" …). "In this talk" / "This session" openers continue a talk that
//     has only given context so far and begin a new one after a talk that
//     has already said what it presents. Each group is a talk with
//     scheduled=false, titled by its own first sentence (DerivedTitle).
//     Without the schedule page these rules alone find the same talks.
//
// Importer reads an organizers' call for papers (`talksearch overlaps
// --from`, the upload page) with the same Formats, accounting for every
// row: kept, merged, repaired or skipped, with the reason and line.
//
// A talk's ID (TalkID) is a slug of its title and a hash of its identity:
// title and start time for a scheduled talk, the folded first paragraph for
// an abstract-only one; file names and order play no part.
package ingest
