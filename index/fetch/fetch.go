// Package fetch downloads seed files published at a URL (a conference's
// schedule.xml), again and again, asking the server whether the file
// changed (If-None-Match, If-Modified-Since) and keeping the copy last
// accepted. It reads bytes and knows no format: what the bytes hold, and
// whether a new copy may replace the old one, is for its caller (ingest,
// then the server's reload rules) to say. It sits below cmd so that any
// command can read a URL, and apart from ingest so that parsing stays free
// of the network, its timeouts and its state.
package fetch

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Defaults of Options.
const (
	DefaultMaxBytes       = 64 << 20 // ingest.MaxFileSize: a larger body could not be read anyway
	DefaultConnectTimeout = 10 * time.Second
	DefaultTimeout        = 60 * time.Second
)

// Options bound every fetch of a Client.
type Options struct {
	// MaxBytes is the largest body taken; a larger one is an error.
	MaxBytes int64
	// ConnectTimeout bounds dialing and the TLS handshake.
	ConnectTimeout time.Duration
	// Timeout bounds a whole request: connecting, redirects, headers and
	// reading the body.
	Timeout time.Duration
}

// IsURL reports whether s names a file by URL (any scheme://), rather than
// a path on disk.
func IsURL(s string) bool {
	i := strings.Index(s, "://")
	if i <= 0 {
		return false
	}
	for _, r := range s[:i] {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '+' || r == '-' || r == '.') {
			return false
		}
	}
	return true
}

// Client fetches over HTTP within its Options.
type Client struct {
	http *http.Client
	max  int64
}

// NewClient returns a Client; zero Options take the defaults.
func NewClient(o Options) *Client {
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = DefaultConnectTimeout
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	dialer := &net.Dialer{Timeout: o.ConnectTimeout, KeepAlive: 30 * time.Second}
	tr := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           dialer.DialContext,
		TLSHandshakeTimeout:   o.ConnectTimeout,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          4,
		IdleConnTimeout:       90 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
	return &Client{max: o.MaxBytes, http: &http.Client{
		Transport:     tr,
		Timeout:       o.Timeout,
		CheckRedirect: checkRedirect,
	}}
}

// checkRedirect follows up to 10 redirects to http or https URLs, and
// none from https to http: a schedule fetched over TLS is not then read in
// the clear, nor from a file:// or any other scheme.
func checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	switch s := req.URL.Scheme; {
	case s != "http" && s != "https":
		return fmt.Errorf("redirect to %s refused: only http and https are fetched", req.URL.Redacted())
	case s == "http" && via[len(via)-1].URL.Scheme == "https":
		return fmt.Errorf("redirect from https to %s refused", req.URL.Redacted())
	}
	return nil
}

// Status is what is known of a Source's fetches, for /healthz.
type Status struct {
	URL          string    // as reported: no user or password, no fragment
	LastAttempt  time.Time // the last fetch begun (zero: none yet)
	LastSuccess  time.Time // the last fetch that found the accepted copy current or replaced it
	LastChange   time.Time // when the accepted copy last changed
	LastError    string    // the last fetch's or refusal's error, kept after later successes
	LastErrorAt  time.Time
	ETag         string // of the accepted copy
	LastModified string // of the accepted copy
	Bytes        int    // of the accepted copy
	Fetches      int    // fetches begun
	NotModified  int    // answered 304, or the same bytes again
	Changes      int    // new copies accepted
	Failures     int    // fetches failed, and new copies refused
	HasCopy      bool   // a copy was accepted: it is what is read while fetches fail
}

// Source is one URL, fetched again and again. It keeps the copy last
// accepted and the validators the server gave with it; a new copy becomes
// the accepted one only once its caller Accepts it, so that a broken
// download, refused, leaves the last good copy in use. Safe for
// concurrent use.
type Source struct {
	c    *Client
	url  string // as requested
	name string

	mu           sync.Mutex
	good         []byte
	goodSum      [32]byte
	hasGood      bool
	etag, lastMo string
	refusedSum   [32]byte
	hasRefused   bool
	st           Status
}

// Source returns the Source of rawURL: an absolute http or https URL. Its
// fragment is dropped (never sent to a server).
func (c *Client) Source(rawURL string) (*Source, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("%s: only http and https URLs are fetched", u.Redacted())
	}
	if u.Host == "" {
		return nil, fmt.Errorf("%s: no host", u.Redacted())
	}
	u.Fragment, u.RawFragment = "", ""
	s := &Source{c: c, url: u.String()}
	u.User = nil
	s.name = u.String()
	s.st.URL = s.name
	return s, nil
}

// Name is the URL as reported: without user, password or fragment.
func (s *Source) Name() string { return s.name }

// Copy is the accepted copy, if there is one.
func (s *Source) Copy() ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.good, s.hasGood
}

// Status is a snapshot of the source's fetches.
func (s *Source) Status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st
}

// Result is what one fetch found.
type Result struct {
	// Changed: Data is a new copy, unlike the accepted one and the last
	// one refused. Accept or Refuse it.
	Changed bool
	Data    []byte
	sum     [32]byte
	etag    string
	lastMo  string
}

// Fetch asks the server for the file, conditionally when a copy was
// accepted. An error leaves the accepted copy as it was; so does a 304,
// or the same bytes again (no Changed, nothing to re-read).
func (s *Source) Fetch(ctx context.Context) (Result, error) {
	s.mu.Lock()
	s.st.Fetches++
	s.st.LastAttempt = time.Now()
	etag, lastMo, hasGood := s.etag, s.lastMo, s.hasGood
	s.mu.Unlock()

	r, notModified, err := s.get(ctx, etag, lastMo, hasGood)
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	switch {
	case err != nil:
		s.failed(err, now)
		return Result{}, err
	case notModified:
		s.st.NotModified++
		s.st.LastSuccess = now
		return Result{}, nil
	case s.hasGood && r.sum == s.goodSum:
		// A server without validators, or new validators for the same
		// bytes: nothing changed, and the next request asks with these.
		s.etag, s.lastMo = r.etag, r.lastMo
		s.st.ETag, s.st.LastModified = r.etag, r.lastMo
		s.st.NotModified++
		s.st.LastSuccess = now
		return Result{}, nil
	case s.hasRefused && r.sum == s.refusedSum:
		// The copy refused last time, again: refused again without
		// being re-read; its refusal stays the last error.
		return Result{}, nil
	}
	r.Changed = true
	return r, nil
}

func (s *Source) failed(err error, now time.Time) {
	s.st.Failures++
	s.st.LastError = err.Error()
	s.st.LastErrorAt = now
}

func (s *Source) get(ctx context.Context, etag, lastMo string, conditional bool) (Result, bool, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.url, nil)
	if err != nil {
		return Result{}, false, err
	}
	req.Header.Set("User-Agent", "talksearch")
	if conditional {
		if etag != "" {
			req.Header.Set("If-None-Match", etag)
		}
		if lastMo != "" {
			req.Header.Set("If-Modified-Since", lastMo)
		}
	}
	resp, err := s.c.http.Do(req)
	if err != nil {
		return Result{}, false, fmt.Errorf("fetch %s: %w", s.name, redactURLError(err, s.name))
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotModified && conditional:
		return Result{}, true, nil
	case resp.StatusCode != http.StatusOK:
		return Result{}, false, fmt.Errorf("fetch %s: HTTP %s", s.name, resp.Status)
	case resp.ContentLength > s.c.max:
		return Result{}, false, fmt.Errorf("fetch %s: %d bytes, over the %d-byte limit", s.name, resp.ContentLength, s.c.max)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, s.c.max+1))
	switch {
	case err != nil:
		// A body shorter than its Content-Length ends in
		// io.ErrUnexpectedEOF: a cut download, never a copy.
		return Result{}, false, fmt.Errorf("fetch %s: body cut after %d bytes: %w", s.name, len(data), redactURLError(err, s.name))
	case int64(len(data)) > s.c.max:
		return Result{}, false, fmt.Errorf("fetch %s: over the %d-byte limit", s.name, s.c.max)
	}
	return Result{Data: data, sum: sha256.Sum256(data), etag: resp.Header.Get("ETag"), lastMo: resp.Header.Get("Last-Modified")}, false, nil
}

// redactURLError keeps a *url.Error's cause and drops its URL, which may
// carry a password; the message names the source by name instead.
func redactURLError(err error, name string) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		if ue.Timeout() {
			return fmt.Errorf("timed out: %w", ue.Err)
		}
		return ue.Err
	}
	return err
}

// Accept makes r's copy the accepted one, with its validators. A Result
// without Changed accepts nothing.
func (s *Source) Accept(r Result) {
	if !r.Changed {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	s.good, s.goodSum, s.hasGood = r.Data, r.sum, true
	s.etag, s.lastMo = r.etag, r.lastMo
	s.hasRefused = false
	s.st.ETag, s.st.LastModified, s.st.Bytes, s.st.HasCopy = r.etag, r.lastMo, len(r.Data), true
	s.st.Changes++
	s.st.LastSuccess, s.st.LastChange = now, now
}

// Refuse records that r's copy may not replace the accepted one, and why:
// the accepted copy stays, and the same bytes fetched again are refused
// without being re-read. The validators stay the accepted copy's, so the
// server is asked again each time.
func (s *Source) Refuse(r Result, why error) {
	if !r.Changed {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refusedSum, s.hasRefused = r.sum, true
	s.failed(fmt.Errorf("new copy refused, the last good one stays: %w", why), time.Now())
}
