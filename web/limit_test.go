package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/talksearch/talksearch/search"
)

func TestExpensiveByShape(t *testing.T) {
	for _, tt := range []struct {
		q    string
		want bool
	}{
		{"", false},
		{"kv cache", false},
		{"mixture of experts", false},
		{"monrach", false},
		{`"distributed training" -monarch`, false},
		{"running llms on cpus with torch.compile", false},
		{"how do I train on many GPUs", false},
		{"one two three four five six seven eight nine", true},
		{strings.Repeat("x", 65), true},
		{`"a b" "c d"`, true},
	} {
		if got := expensive(search.Request{Query: tt.q}); got != tt.want {
			t.Errorf("expensive(%q) = %v, want %v", tt.q, got, tt.want)
		}
	}
}

// TestClientBudget: one client's long hostile queries must not take the
// CPU from everyone. A client that spent its budget of server time is
// answered 429 until it has earned it back; other clients are not.
func TestClientBudget(t *testing.T) {
	l := newWorkLimiter(ClientBudgetRate)
	now := time.Date(2026, 4, 8, 10, 0, 0, 0, time.UTC)
	l.now = func() time.Time { return now }
	// Each search "takes" 400 ms of the fake clock.
	work := func() error { now = now.Add(400 * time.Millisecond); return nil }
	ctx := context.Background()
	// A full budget of 1 s (four seconds' worth of 250 ms); each search
	// spends 0.4 s and earns 0.1 s back:
	// the fourth starts with nothing left and ends 0.3 s in debt, which
	// takes 1.2 s to earn back.
	for i := range 4 {
		if err := l.run(ctx, "10.0.0.1", work); err != nil {
			t.Fatalf("search %d within the budget: %v", i, err)
		}
	}
	err := l.run(ctx, "10.0.0.1", work)
	b, ok := isBusy(err)
	if !ok || b.retryAfter() != "2" {
		t.Fatalf("search in debt: %v, want a busy error with Retry-After 2", err)
	}
	if code, _ := status(err); code != http.StatusTooManyRequests {
		t.Errorf("status %d, want 429", code)
	}
	if err := l.run(ctx, "10.0.0.2", work); err != nil {
		t.Errorf("another client: %v", err)
	}
	now = now.Add(1300 * time.Millisecond) // earns 325 ms: out of debt
	if err := l.run(ctx, "10.0.0.1", work); err != nil {
		t.Errorf("after waiting: %v", err)
	}
}

// TestExpensivePlaces: expensive searches take one of a few places
// server-wide; when all are taken past ExpensiveWait the answer is 429.
func TestExpensivePlaces(t *testing.T) {
	l := newWorkLimiter(0) // no budgets: the places alone
	for range cap(l.slots) {
		l.slots <- struct{}{}
	}
	ran := false
	err := l.run(context.Background(), "10.0.0.3", func() error { ran = true; return nil })
	if _, ok := isBusy(err); !ok || ran {
		t.Errorf("all places taken: %v, ran %v; want busy, not run", err, ran)
	}
	<-l.slots
	if err := l.run(context.Background(), "10.0.0.3", func() error { ran = true; return nil }); err != nil || !ran {
		t.Errorf("a place free: %v, ran %v", err, ran)
	}
	if len(l.slots) != cap(l.slots)-1 {
		t.Errorf("%d places taken after the search, want %d", len(l.slots), cap(l.slots)-1)
	}
}

// TestExpensiveSearchAnswers429: through the router, with Retry-After.
func TestExpensiveSearchAnswers429(t *testing.T) {
	work := newWorkLimiter(ClientBudgetRate)
	h, err := NewHandler(&fakeSearcher{}, zerolog.Nop(), Options{work: work})
	if err != nil {
		t.Fatal(err)
	}
	long := "/api/search?q=" + strings.Repeat("zq+", 30)
	// This client (httptest's RemoteAddr 192.0.2.1) spent its budget.
	work.budget("192.0.2.1").ReserveN(time.Now(), int(work.burst().Microseconds()))
	work.budget("192.0.2.1").ReserveN(time.Now(), int(work.burst().Microseconds()))
	req := httptest.NewRequest(http.MethodGet, long, nil)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" || !strings.Contains(rec.Body.String(), "too many long searches") {
		t.Errorf("expensive search in debt: %d %q %s", rec.Code, rec.Header().Get("Retry-After"), rec.Body)
	}
	if rec := get(t, h, "/api/search?q=monarch"); rec.Code != http.StatusOK {
		t.Errorf("an ordinary search of the same client: %d, want 200", rec.Code)
	}
	// X-Forwarded-For does not give a client a new budget.
	req = httptest.NewRequest(http.MethodGet, long, nil)
	req.Header.Set("X-Forwarded-For", "198.51.100.7")
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusTooManyRequests {
		t.Errorf("X-Forwarded-For escaped the limit: %d", rec.Code)
	}
}

// TestAdminAuthFailuresRateLimited: wrong reload tokens are rate limited,
// so a token cannot be guessed by trying without end.
func TestAdminAuthFailuresRateLimited(t *testing.T) {
	const token = "s3cret-token"
	reloads := 0
	h, err := NewHandler(noSearcher{}, zerolog.Nop(), Options{ReloadToken: token, Reload: func(context.Context, ReloadOptions) (ReloadReport, error) {
		reloads++
		return ReloadReport{Talks: 1}, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	post := func(auth string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "/admin/reload", nil)
		req.Header.Set("Authorization", auth)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	if rec := post("Bearer " + token); rec.Code != http.StatusOK {
		t.Fatalf("right token: %d", rec.Code)
	}
	for i := range AuthFailures {
		if rec := post("Bearer guess"); rec.Code != http.StatusUnauthorized {
			t.Fatalf("wrong token %d: %d, want 401", i+1, rec.Code)
		}
	}
	for _, auth := range []string{"Bearer guess", "Bearer " + token} {
		rec := post(auth)
		if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" {
			t.Errorf("%s after %d failures: %d, Retry-After %q; want 429", auth, AuthFailures, rec.Code, rec.Header().Get("Retry-After"))
		}
	}
	if reloads != 1 {
		t.Errorf("%d reloads, want 1", reloads)
	}
}
