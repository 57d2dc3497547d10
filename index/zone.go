package index

import (
	"sync"
	"time"
)

// zones caches time.LoadLocation, which reads tzdata from disk each call.
var zones sync.Map // IANA name → *time.Location, or nil when unknown

// Local returns tm in the talk's own zone: its TimeZone where the host's
// tzdata knows the name, else the zone tm already carries (Start and End
// carry the conference's offset). Days and times of day of a talk are
// always read in its own zone, never the server's.
func (t *Talk) Local(tm time.Time) time.Time {
	if t.TimeZone == "" {
		return tm
	}
	v, ok := zones.Load(t.TimeZone)
	if !ok {
		loc, err := time.LoadLocation(t.TimeZone)
		if err != nil {
			loc = nil
		}
		v, _ = zones.LoadOrStore(t.TimeZone, loc)
	}
	if loc, _ := v.(*time.Location); loc != nil {
		return tm.In(loc)
	}
	return tm
}

// Day is the talk's date in its own zone ("2026-04-08"), empty when it is
// not on the schedule.
func (t *Talk) Day() string {
	if t.Start == nil {
		return ""
	}
	return t.Local(*t.Start).Format(time.DateOnly)
}
