// Package index turns the seed dumps into talks and talks into a Bleve
// index: parsing (the Sched schedule page and bare abstract dumps), dedup,
// the Talk model, the analyzer, the mapping and the build.
package index
