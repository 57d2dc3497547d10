// Package seeds embeds the conference text dumps that talksearch serves by
// default, so the binary runs anywhere without a data directory.
package seeds

import "embed"

// FS holds the seed dumps (*.txt) exactly as committed.
//
//go:embed *.txt
var FS embed.FS
