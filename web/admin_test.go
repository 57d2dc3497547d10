package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

// noSearcher is a Searcher the admin route never calls.
type noSearcher struct{ Searcher }

func TestAdminReload(t *testing.T) {
	const token = "s3cret-token"
	ok := func(context.Context, ReloadOptions) (ReloadReport, error) {
		return ReloadReport{Talks: 42, Warnings: 1, TookMS: 3.5}, nil
	}
	rejected := func(context.Context, ReloadOptions) (ReloadReport, error) {
		return ReloadReport{}, fmt.Errorf("%w: seed 003.txt: binary file", ErrSeedsRejected)
	}
	broken := func(context.Context, ReloadOptions) (ReloadReport, error) {
		return ReloadReport{}, errors.New("build the new index: disk full")
	}
	tests := []struct {
		name       string
		token      string // configured on the server
		reload     ReloadFunc
		method     string
		auth       string
		wantStatus int
		wantCalls  int
		wantBody   string // a substring of the answer
	}{
		{"disabled without a token", "", ok, "POST", "Bearer " + token, http.StatusForbidden, 0, "disabled"},
		{"disabled without a reload func", token, nil, "POST", "Bearer " + token, http.StatusForbidden, 0, "disabled"},
		{"no credentials", token, ok, "POST", "", http.StatusUnauthorized, 0, "bearer token"},
		{"wrong token", token, ok, "POST", "Bearer nope", http.StatusUnauthorized, 0, "bearer token"},
		{"token prefix", token, ok, "POST", "Bearer s3cret", http.StatusUnauthorized, 0, "bearer token"},
		{"basic scheme", token, ok, "POST", "Basic " + token, http.StatusUnauthorized, 0, "bearer token"},
		{"token without scheme", token, ok, "POST", token, http.StatusUnauthorized, 0, "bearer token"},
		{"reloads", token, ok, "POST", "Bearer " + token, http.StatusOK, 1, `{"talks":42,"warnings":1,"took_ms":3.5}`},
		{"scheme in lower case", token, ok, "POST", "bearer " + token, http.StatusOK, 1, `"talks":42`},
		{"rejected seeds", token, rejected, "POST", "Bearer " + token, http.StatusUnprocessableEntity, 1, "seed 003.txt: binary file"},
		{"failed build", token, broken, "POST", "Bearer " + token, http.StatusInternalServerError, 1, "disk full"},
		{"GET does not reload", token, ok, "GET", "Bearer " + token, http.StatusMethodNotAllowed, 0, "method not allowed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			var reload ReloadFunc
			if tt.reload != nil {
				reload = func(ctx context.Context, o ReloadOptions) (ReloadReport, error) {
					calls++
					return tt.reload(ctx, o)
				}
			}
			h, err := NewHandler(noSearcher{}, zerolog.Nop(), Options{ReloadToken: tt.token, Reload: reload})
			if err != nil {
				t.Fatal(err)
			}
			req := httptest.NewRequest(tt.method, "/admin/reload", nil)
			if tt.auth != "" {
				req.Header.Set("Authorization", tt.auth)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tt.wantStatus {
				t.Errorf("status %d, want %d; body %s", rec.Code, tt.wantStatus, rec.Body)
			}
			if calls != tt.wantCalls {
				t.Errorf("reload called %d times, want %d", calls, tt.wantCalls)
			}
			if !strings.Contains(rec.Body.String(), tt.wantBody) {
				t.Errorf("body %s, want it to contain %s", rec.Body, tt.wantBody)
			}
			if tt.method == "POST" {
				var body map[string]any
				if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
					t.Errorf("answer is not JSON: %v: %s", err, rec.Body)
				}
				if cc := rec.Header().Get("Cache-Control"); cc != "no-store" {
					t.Errorf("Cache-Control %q, want no-store", cc)
				}
			}
			if got := rec.Header().Get("WWW-Authenticate"); (rec.Code == http.StatusUnauthorized) != (got != "") {
				t.Errorf("status %d with WWW-Authenticate %q", rec.Code, got)
			}
		})
	}
}
