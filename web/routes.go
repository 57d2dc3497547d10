package web

import "github.com/gin-gonic/gin"

// routes lists every route the server answers, in one place.
func (s *server) routes(r *gin.Engine) {
	// Outermost first: the access log sees the final status, including the
	// 500 of a recovered panic.
	r.Use(
		s.requestID(),
		s.accessLog(),
		s.recovery(),
		s.securityHeaders(),
		s.bounds(),
	)

	// Pages. GET / with the X-Talksearch-Fragment header answers only the
	// live part of the search page, which the script swaps in.
	// Every GET route answers HEAD too (net/http writes no body for it):
	// monitors, link checkers and caches probe with HEAD.
	get := func(path string, h gin.HandlerFunc) {
		r.GET(path, h)
		r.HEAD(path, h)
	}
	get("/", s.searchPage)
	get("/talks/:id", s.talkPage)
	get("/overlaps", s.overlapsPage)
	r.POST("/overlaps", s.overlapsUpload) // organizers.go: behind the reload token
	get("/overlaps/talks/:id", s.overlapTalkPage)
	// The attendee's day (attendee.go, schedule.go, calendar.go);
	// /talks/ID.ics is the talk route's.
	get("/now", s.nowPage)
	get("/schedule", s.schedulePage)
	get("/agenda", s.agendaPage)
	get("/agenda.ics", s.agendaCalendar)
	get("/search.ics", s.searchCalendar)
	get("/speakers/:slug", s.speakerPage)
	// One conference's own pages, where several are loaded
	// (conferences.go), and its schedule for conference apps (frab.go).
	get("/c/:conference", s.toConferencePage)
	get("/c/:conference/", s.conferencePage)
	get("/c/:conference/now", s.nowPage)
	get("/c/:conference/schedule", s.schedulePage)
	get("/c/:conference/speakers/:slug", s.speakerPage)
	get("/c/:conference/schedule.xml", s.scheduleXML)

	// JSON API.
	get("/api/search", s.apiSearch)
	get("/api/talks/:id", s.apiTalk)
	get("/api/overlaps", s.apiOverlaps)
	get("/api/overlaps.csv", s.apiOverlapsCSV)
	get("/api/overlaps/talks/:id", s.apiOverlapTalk)
	get("/api/now", s.apiNow)
	get("/api/agenda", s.apiAgenda)

	get("/healthz", s.healthz)
	r.POST("/admin/reload", s.adminReload)
	get("/static/*file", s.staticFile)
	get("/sw.js", s.serviceWorker)

	// Unknown paths: JSON under /api, a page elsewhere; a known path with
	// another method: 405 with Allow (HandleMethodNotAllowed).
	r.NoRoute(s.notFound)
	r.NoMethod(s.methodNotAllowed)
}
