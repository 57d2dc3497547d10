//go:build !linux

package index

const canDropPages = false

// dropMappedFiles does nothing where /proc/self/maps is not to be read.
func dropMappedFiles([]string) {}
