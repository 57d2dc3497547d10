package web

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"net/http"
	"sync"

	"github.com/gin-gonic/gin"
)

// pageNames are the pages; each is parsed with layout.html into its own
// template set, so their blocks ("title", "content") do not collide.
var pageNames = []string{"search", "talk", "overlaps", "overlap_talk", "error", "now", "schedule", "agenda", "speaker"}

// page is what every page's layout needs.
type page struct {
	Title string
	// Query fills the header's search box.
	Query string
	// OwnSearchBox hides the header's search box on the search page, which
	// has its own.
	OwnSearchBox bool
	// MaxQueryLen lets the search boxes refuse what the server would.
	MaxQueryLen int
	// OGTitle and OGDescription are the link preview of a page (Open
	// Graph); empty: the page has none of its own.
	OGTitle, OGDescription string
	// RefreshSeconds reloads a live view (now and next) by itself, without
	// script; 0: the page stays as it is.
	RefreshSeconds int
	// Scope is the conference the page is of, where the site holds
	// several (conferences.go); Nav the header's links, within it.
	Scope *scopeView
	Nav   navLinks
}

func (s *server) newPage(title string) page {
	return page{Title: title, MaxQueryLen: s.opts.MaxQueryLen, Nav: siteNav}
}

func (s *server) parsePages(fsys fs.FS) (map[string]*template.Template, error) {
	funcs := template.FuncMap{
		"asset":     s.assetURL,
		"highlight": safeHighlight,
	}
	pages := make(map[string]*template.Template, len(pageNames))
	for _, name := range pageNames {
		t, err := template.New(name).Funcs(funcs).ParseFS(fsys, "layout.html", "parts.html", "pair.html", name+".html")
		if err != nil {
			return nil, fmt.Errorf("template %s: %w", name, err)
		}
		for _, block := range []string{"layout", "title", "content"} {
			if t.Lookup(block) == nil {
				return nil, fmt.Errorf("template %s: no %q block", name, block)
			}
		}
		pages[name] = t
	}
	if pages["search"].Lookup("live") == nil {
		return nil, fmt.Errorf("template search: no %q block", "live")
	}
	return pages, nil
}

// render writes a page that is not kept for reuse: an error page.
func (s *server) render(c *gin.Context, code int, name string, data any) {
	body, err := s.renderBytes(name, "layout", data)
	if err != nil {
		s.logFor(c).Error().Err(err).Msg("render page")
		c.Data(http.StatusInternalServerError, "text/plain; charset=utf-8", []byte("internal error\n"))
		return
	}
	c.Header("Cache-Control", "no-cache")
	c.Data(code, "text/html; charset=utf-8", body)
}

// renderBytes executes a block of a page (its "layout", or another such as
// the search page's "live" fragment) into a buffer, so a template error
// becomes a clean 500 instead of half a page.
func (s *server) renderBytes(name, block string, data any) ([]byte, error) {
	var buf bytes.Buffer
	if err := s.pages[name].ExecuteTemplate(&buf, block, data); err != nil {
		return nil, fmt.Errorf("render %s %s: %w", name, block, err)
	}
	return buf.Bytes(), nil
}

var gzipWriters = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(io.Discard, gzip.BestSpeed)
	return w
}}

func gzipBytes(data []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw := gzipWriters.Get().(*gzip.Writer)
	defer gzipWriters.Put(zw)
	zw.Reset(&buf)
	if _, err := zw.Write(data); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
