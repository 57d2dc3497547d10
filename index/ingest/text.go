package ingest

import "strings"

// cleanLine turns the invisible variants of a space into a plain space and
// trims the line: the track line of the schedule is indented with a
// non-breaking space, and copied lines carry trailing blanks.
func cleanLine(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\u00a0', r == '\u202f', r == '\u2007', r == '\u2009', r == '\u200a', r == '\t':
			return ' '
		case r == '\u200b', r == '\ufeff', r == '\u00ad':
			return -1 // zero-width space, BOM, soft hyphen
		}
		return r
	}, s)
	// Runs of blanks inside a line are copy artefacts ("Brownie  (Vegetarian)").
	return strings.Join(strings.Fields(s), " ")
}
