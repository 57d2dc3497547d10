// Package web serves talksearch over HTTP with Gin: the search page, talk
// pages and the organizers' overlap page (server-rendered with html/template,
// enhanced by one small embedded script), and the JSON API behind them.
//
// The package depends only on the Searcher interface, so its tests run
// against a fake, which passes the same contract table as the engine
// (contract_test.go); it never imports Bleve. It owns the API's JSON: the
// documents and their encoder are in apidoc.go, and the CLI's --json
// prints them too. Every route is listed in
// routes.go, every error is mapped to an HTTP status in errors.go, and the
// middleware (request ids, access log, panic recovery, security headers,
// request bounds) is in middleware.go.
//
// Data-set text is always escaped: html/template escapes it in pages and
// encoding/json in the API. The only markup injected into a page is the
// <mark> of search highlights and overlap passages, and only after
// safeHighlight has checked that nothing else is in them.
package web
