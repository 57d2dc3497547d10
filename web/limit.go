package web

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gin-gonic/gin"
	"github.com/maypok86/otter/v2"
	"golang.org/x/time/rate"

	"github.com/talksearch/talksearch/search"
)

// Limits of expensive work. A search is expensive by its shape, known
// before it runs: more than ExpensiveWords words, more than
// ExpensiveChars characters, or more than one quoted phrase. People type
// "kv cache", "monarch" or "mixture of experts"; 400 characters of random
// words, misspellings or phrases are what cost the most CPU, and they are
// what a client can send without end.
//
// An expensive search that no kept answer covers then needs:
//
//   - its client's budget of server time: each client (IP address) earns
//     Options.ClientBudget (ClientBudgetRate) of server time a second, up
//     to four times that, and each expensive search is charged the time it
//     took. A client in debt is answered 429 with Retry-After, the seconds
//     until it is out of debt;
//   - one of a few places (half the CPUs, at least one) for
//     expensive searches server-wide, waited for at most ExpensiveWait,
//     else 429: however many clients send them, the other half of the
//     machine serves everyone else.
//
// Ordinary searches are never limited here: the engine bounds their work
// and most are answered from the response cache.
const (
	ExpensiveWords   = 8
	ExpensiveChars   = 64
	ClientBudgetRate = 250 * time.Millisecond // of server time, per second
	ExpensiveWait    = 200 * time.Millisecond
	// limitedClients bounds the clients whose budgets are kept; a client
	// idle for clientIdle is forgotten (and starts with a full budget).
	limitedClients = 10_000
	clientIdle     = 10 * time.Minute
)

// expensive says whether a search request is expensive by its shape.
func expensive(r search.Request) bool {
	return utf8.RuneCountInString(r.Query) > ExpensiveChars ||
		len(strings.Fields(r.Query)) > ExpensiveWords ||
		strings.Count(r.Query, `"`) > 2
}

// busyError is a 429: the client should retry after retry.
type busyError struct {
	msg   string
	retry time.Duration
}

func (e *busyError) Error() string { return e.msg }

// retryAfter is the Retry-After value of e: whole seconds, at least 1.
func (e *busyError) retryAfter() string {
	return strconv.Itoa(max(1, int(math.Ceil(e.retry.Seconds()))))
}

// workLimiter holds the client budgets and the server-wide places.
type workLimiter struct {
	rate    time.Duration // of server time a client earns per second; 0: no budgets
	clients *otter.Cache[string, *rate.Limiter]
	slots   chan struct{}
	now     func() time.Time
}

func newWorkLimiter(budget time.Duration) *workLimiter {
	return &workLimiter{
		rate: budget,
		clients: otter.Must(&otter.Options[string, *rate.Limiter]{
			MaximumSize:      limitedClients,
			ExpiryCalculator: otter.ExpiryAccessing[string, *rate.Limiter](clientIdle),
		}),
		slots: make(chan struct{}, max(1, runtime.GOMAXPROCS(0)/2)),
		now:   time.Now,
	}
}

// budget is the client's limiter: tokens are microseconds of server time.
func (l *workLimiter) budget(client string) *rate.Limiter {
	lim, _ := l.clients.Compute(client, func(old *rate.Limiter, found bool) (*rate.Limiter, otter.ComputeOp) {
		if found {
			return old, otter.CancelOp
		}
		return rate.NewLimiter(rate.Limit(l.rate.Microseconds()), int(l.burst().Microseconds())), otter.WriteOp
	})
	return lim
}

// burst is the most server time a client can save up: four seconds' worth.
func (l *workLimiter) burst() time.Duration { return 4 * l.rate }

// run runs work, an expensive search of client, within the limits.
func (l *workLimiter) run(ctx context.Context, client string, work func() error) error {
	var lim *rate.Limiter
	if l.rate > 0 {
		lim = l.budget(client)
		if debt := -lim.TokensAt(l.now()); debt > 0 {
			wait := time.Duration(debt/float64(lim.Limit())*float64(time.Second)) + time.Millisecond
			return &busyError{msg: fmt.Sprintf("too many long searches from your address: try again in %s", wait.Round(time.Second)), retry: wait}
		}
	}
	timer := time.NewTimer(ExpensiveWait)
	defer timer.Stop()
	select {
	case l.slots <- struct{}{}:
	case <-timer.C:
		return &busyError{msg: "the server is busy with long searches: try again in a second", retry: time.Second}
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-l.slots }()
	start := l.now()
	err := work()
	if lim != nil {
		// Charged after the fact, in debt if need be: the cost is known
		// only now. A charge above the burst could never be reserved, and
		// the engine's own bounds keep a search far below it.
		spent := min(l.now().Sub(start), l.burst())
		lim.ReserveN(l.now(), int(max(spent.Microseconds(), 1)))
	}
	return err
}

// search is Searcher.Search for a handler: expensive searches go through
// the work limiter, keyed by the client's address.
func (s *server) search(c *gin.Context, ctx context.Context, r search.Request) (*search.Result, error) {
	if s.work == nil || !expensive(r) {
		return s.s.Search(ctx, r)
	}
	var res *search.Result
	err := s.work.run(ctx, c.ClientIP(), func() error {
		var err error
		res, err = s.s.Search(ctx, r)
		return err
	})
	return res, err
}

// Failed admin authentications: AuthFailures in a row, then one every
// AuthFailureEvery, per client address; beyond that every reload request
// of the client is answered 429 until it has waited, so a token cannot be
// guessed by trying.
const (
	AuthFailures     = 5
	AuthFailureEvery = 10 * time.Second
)

// authLimiter counts failed admin authentications per client.
type authLimiter struct {
	clients *otter.Cache[string, *rate.Limiter]
}

func newAuthLimiter() *authLimiter {
	return &authLimiter{clients: otter.Must(&otter.Options[string, *rate.Limiter]{
		MaximumSize:      limitedClients,
		ExpiryCalculator: otter.ExpiryAccessing[string, *rate.Limiter](clientIdle),
	})}
}

func (a *authLimiter) limiter(client string) *rate.Limiter {
	lim, _ := a.clients.Compute(client, func(old *rate.Limiter, found bool) (*rate.Limiter, otter.ComputeOp) {
		if found {
			return old, otter.CancelOp
		}
		return rate.NewLimiter(rate.Every(AuthFailureEvery), AuthFailures), otter.WriteOp
	})
	return lim
}

// blocked says whether client has used up its failures, and for how long.
func (a *authLimiter) blocked(client string) (time.Duration, bool) {
	lim := a.limiter(client)
	t := lim.Tokens()
	if t >= 1 {
		return 0, false
	}
	return time.Duration((1 - t) * float64(AuthFailureEvery)), true
}

// failed counts one failed authentication of client.
func (a *authLimiter) failed(client string) { a.limiter(client).Allow() }

// isBusy reports a busyError in err.
func isBusy(err error) (*busyError, bool) {
	var b *busyError
	ok := errors.As(err, &b)
	return b, ok
}
