// Package index is the talk model and its Bleve index: Talk (talk.go) and
// the one clash rule, Talk.Clashes (clash.go); the fields documents carry
// (fields.go) and their mapping (mapping.go, with MappingVersion); the
// batch build (build.go) and the on-disk index reused across runs
// (persist.go, Open). Reading the seeds into talks is index/ingest's job,
// the analyzer index/analysis's; index imports neither the search packages
// nor the seeds.
package index
