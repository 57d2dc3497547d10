package overlap

import (
	"bytes"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/ingest"
)

// The schedule and CfP exports of index/ingest (pretalx's API, frab XML and
// JSON, iCalendar) are submissions files too: each is registered as a
// reader of whole documents, found by its content whatever the file's
// extension. JSON Lines stays the streamed reader above.
func init() {
	for _, f := range ingest.Formats {
		if f.Name() == FormatJSONL {
			continue
		}
		f := f
		RegisterFormat(Format{
			Name:  f.Name(),
			Exts:  extsOf(f.Name()),
			Sniff: func(head []byte) bool { return f.Detect(trimBOM(head)) },
			Whole: func(name string, data []byte) ([]index.Talk, []RowError, error) {
				talks, warnings, err := ingest.ReadFile(name, data, ingest.Options{})
				errs := make([]RowError, len(warnings))
				for i, w := range warnings {
					errs[i] = RowError{File: w.File, Line: w.Line, Action: ActionRepaired, Reason: w.Msg}
				}
				return talks, errs, err
			},
		})
	}
}

func extsOf(format string) []string {
	switch format {
	case "frab-xml":
		return []string{".xml"}
	case "ical":
		return []string{".ics", ".ical"}
	}
	return []string{".json"} // pretalx, frab-json
}

func trimBOM(head []byte) []byte {
	return bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
}
