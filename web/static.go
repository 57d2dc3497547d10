package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
)

// staticFile is one embedded asset, held in memory with its gzip form. The
// set is a few kilobytes, and serving from a map by exact name means no
// directory listing and no path traversal are possible.
type staticFile struct {
	name        string
	data        []byte
	gz          []byte // nil when gzip does not make it smaller
	contentType string
	hash        string // first 12 hex digits of the SHA-256: the cache-busting version
}

func loadStatic(fsys fs.FS) (map[string]*staticFile, error) {
	files := map[string]*staticFile{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		f := &staticFile{
			name:        p,
			data:        data,
			contentType: mime.TypeByExtension(path.Ext(p)),
			hash:        hex.EncodeToString(sum[:6]),
		}
		if f.contentType == "" {
			f.contentType = "application/octet-stream"
		}
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		_, _ = zw.Write(data) // writes to a bytes.Buffer do not fail
		if err := zw.Close(); err == nil && buf.Len() < len(data) {
			f.gz = buf.Bytes()
		}
		files[p] = f
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("static assets: %w", err)
	}
	return files, nil
}

// serviceWorker answers /sw.js, the offline copy of pages (static/sw.js):
// from the site's root so that it may keep any page, and never cached for
// long, so that a new one takes over at the next visit.
func (s *server) serviceWorker(c *gin.Context) {
	f := s.static["sw.js"]
	h := c.Writer.Header()
	h.Set("Cache-Control", "no-cache")
	h.Set("Content-Type", f.contentType)
	h.Set("ETag", `"`+f.hash+`"`)
	http.ServeContent(c.Writer, c.Request, f.name, time.Time{}, bytes.NewReader(f.data))
}

// assetURL is the URL of a static file with its content hash, so a page
// can let browsers cache it for good and still never see a stale one.
func (s *server) assetURL(name string) (string, error) {
	f, ok := s.static[name]
	if !ok {
		return "", fmt.Errorf("no static file %q", name)
	}
	return "/static/" + name + "?v=" + f.hash, nil
}

func (s *server) staticFile(c *gin.Context) {
	name := strings.TrimPrefix(c.Param("file"), "/")
	f, ok := s.static[name]
	if !ok {
		s.fail(c, errRouteNotFound)
		return
	}
	h := c.Writer.Header()
	if c.Query("v") == f.hash {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "public, max-age=300")
	}
	h.Set("Content-Type", f.contentType)
	h.Set("Vary", "Accept-Encoding")
	data, etag := f.data, f.hash
	if f.gz != nil && acceptsGzip(c.Request) {
		h.Set("Content-Encoding", "gzip")
		data, etag = f.gz, f.hash+"-gz"
	}
	h.Set("ETag", `"`+etag+`"`)
	http.ServeContent(c.Writer, c.Request, f.name, time.Time{}, bytes.NewReader(data))
}

// acceptsGzip says whether the client takes gzip (RFC 9110, 12.5.3): the
// weight of "gzip" (or "x-gzip"), else of "*", must be above 0, in any
// spelling of the weight ("q=0", "Q=0.000", " ; q=0.0"). Each element is
// parsed by mime.ParseMediaType, whose parameter grammar is the header's;
// an element it cannot parse, or a weight that is not a number, counts as
// not given. Every header line counts (a proxy may split the field).
func acceptsGzip(r *http.Request) bool {
	gzip, star := -1.0, -1.0
	for _, line := range r.Header.Values("Accept-Encoding") {
		for _, part := range strings.Split(line, ",") {
			if strings.TrimSpace(part) == "" {
				continue
			}
			coding, params, err := mime.ParseMediaType(part)
			if err != nil {
				continue
			}
			q := 1.0
			if v, ok := params["q"]; ok {
				if q, err = strconv.ParseFloat(v, 64); err != nil || q < 0 || q > 1 {
					continue
				}
			}
			switch coding {
			case "gzip", "x-gzip":
				gzip = max(gzip, q)
			case "*":
				star = max(star, q)
			}
		}
	}
	if gzip >= 0 {
		return gzip > 0
	}
	return star > 0
}
