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
	r.GET("/", s.searchPage)
	r.GET("/talks/:id", s.talkPage)
	r.GET("/overlaps", s.overlapsPage)
	r.POST("/overlaps", s.overlapsUpload) // organizers.go: behind the reload token
	r.GET("/overlaps/talks/:id", s.overlapTalkPage)

	// JSON API.
	r.GET("/api/search", s.apiSearch)
	r.GET("/api/talks/:id", s.apiTalk)
	r.GET("/api/overlaps", s.apiOverlaps)
	r.GET("/api/overlaps.csv", s.apiOverlapsCSV)
	r.GET("/api/overlaps/talks/:id", s.apiOverlapTalk)

	r.GET("/healthz", s.healthz)
	r.HEAD("/healthz", s.healthz) // monitors often probe with HEAD
	r.POST("/admin/reload", s.adminReload)
	r.GET("/static/*file", s.staticFile)

	// Unknown paths: JSON under /api, a page elsewhere.
	r.NoRoute(s.notFound)
}
