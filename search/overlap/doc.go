// Package overlap finds, for the program committee, submissions that are the
// same talk twice, that overlap in topic, and similar talks scheduled in
// parallel, and explains each pair with shared terms and matching passages.
package overlap
