package index

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// TightenGC bounds the heap of a large build while its batches are
// indexed, and returns what lifts the bound. The batches' analysis is
// short-lived garbage over a live heap of the talks, so Go's default goal
// (twice the live heap) makes the batches, not the index, a start's peak
// memory. The same holds for what a caller derives from the talks after
// the index (the search engine's tables), which is why it is exported.
//
// The bound is a soft memory limit: the heap may reach times the heap live
// when it starts (the talks, read), over the runtime's own memory, and no
// more than a percent of 75 would let it over a large live heap
// (tightBase). The
// collector then runs more often only when the heap nears it, not all
// along as with a lower percent, whose goal follows the live heap down as
// well as up. A live heap that grows past four fifths of the bound raises
// it after the next collection, to a quarter again the live heap: the
// limit never makes the collector run more often than a percent of 25
// would, so a batch larger than the talks let expect costs memory, not a
// collector that runs without pause.
//
// The limit is the only setting it changes, and the percent in force (Go's,
// or cmd/internal/gcgoal's, which sets it again after every collection)
// still bounds the goal from below it. The environment's GOGC or GOMEMLIMIT
// is the operator's choice and is kept, as is a limit already set, and a
// collector turned off. A small build is left alone: its garbage is small,
// and the collections would cost a reload under load for nothing. One
// bound at a time: a call while another holds changes nothing.
func TightenGC(talks int, times float64) (restore func()) {
	if talks < releaseMemoryMin || envTunesGC() {
		return func() {}
	}
	tight.Lock()
	defer tight.Unlock()
	prev := debug.SetMemoryLimit(-1) // reads it
	if tight.on != nil || prev != math.MaxInt64 || percentOff() {
		return func() {}
	}
	runtime.GC() // the heap live now, not when the last collection ran
	live, _ := heapFigures()
	t := &tightening{prev: prev, base: tightBase(live, times)}
	tight.on = t
	t.set(live)
	afterNextGC(t)
	return func() {
		tight.Lock()
		defer tight.Unlock()
		if tight.on == t {
			tight.on = nil
			debug.SetMemoryLimit(t.prev)
		}
	}
}

// tightBase is the heap a tightening allows over a live heap of live bytes:
// times it, but no more garbage than a percent of 75 would leave beyond
// tightRoom. What the batches (or the derivations) add does not grow with
// the corpus, while the talks do: in a large corpus times the live heap
// left the default goal (twice the live heap) in force, the largest part
// of the build's peak memory. Each collection then
// marks more for the garbage it frees, a cost that grows with the corpus.
func tightBase(live uint64, times float64) uint64 {
	return min(uint64(float64(live)*times), max(live+tightRoom, live*7/4))
}

// tightRoom is the garbage a tightening always allows: the two batches in
// flight and the collector's share of them.
const tightRoom = 128 << 20

// buildHeap is the heap a large build's batches may reach, in times the
// heap live when they start (the talks): the two batches in flight add
// about as much again, and the collector gets two fifths of that.
const buildHeap = 2.8

// tight is the tightening in force, if any.
var tight struct {
	sync.Mutex
	on *tightening
}

// A tightening is one TightenGC's limit.
type tightening struct {
	prev   int64  // the limit before it, given back
	base   uint64 // the heap it allows while the live heap stays below four fifths of it
	limit  int64  // the limit it set
	raised bool   // for a live heap past four fifths of base
}

// set sets the limit to the heap the tightening allows over a live heap of
// live bytes, plus the runtime's memory beside the heap's objects. Within
// the bound it is set once, not after each collection: the runtime's
// memory would move it a little every time.
func (t *tightening) set(live uint64) {
	heap := max(t.base, live*5/4)
	raised := heap > t.base
	if t.limit != 0 && !raised && !t.raised {
		return
	}
	_, overhead := heapFigures()
	t.limit = int64(min(heap+overhead, math.MaxInt64/2))
	t.raised = raised
	debug.SetMemoryLimit(t.limit)
}

// sentinel is what afterNextGC hangs its cleanup on. It holds a pointer so
// that it is never one of the tiny pointer-free objects the allocator packs
// together, whose cleanups may wait for a neighbour to die.
type sentinel struct{ _ *byte }

// afterNextGC sets t's limit again once the next collection has found a
// fresh sentinel unreachable, from the live heap that collection marked,
// and arms itself for the one after, for as long as t is in force.
func afterNextGC(t *tightening) {
	runtime.AddCleanup(new(sentinel), func(t *tightening) {
		tight.Lock()
		defer tight.Unlock()
		if tight.on != t {
			return
		}
		live, _ := heapFigures()
		t.set(live)
		afterNextGC(t)
	}, t)
}

// heapFigures reads the heap the last collection marked live, and the
// memory the runtime holds beside the heap's objects (stacks, its own
// tables, the unused part of spans), which a memory limit counts too.
func heapFigures() (live, overhead uint64) {
	s := []metrics.Sample{
		{Name: "/gc/heap/live:bytes"},
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
		{Name: "/memory/classes/heap/free:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"},
	}
	metrics.Read(s)
	v := make([]uint64, len(s))
	for i := range s {
		if s[i].Value.Kind() == metrics.KindUint64 {
			v[i] = s[i].Value.Uint64()
		}
	}
	mapped := v[1] - min(v[1], v[2])
	inUse := v[3] + v[4]
	return v[0], mapped - min(mapped, inUse)
}

// percentOff reports whether the collector is turned off (GOGC=off or
// debug.SetGCPercent(-1)): a limit would turn it back on.
func percentOff() bool {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return s[0].Value.Kind() == metrics.KindUint64 && int32(s[0].Value.Uint64()) < 0
}

// envTunesGC reports whether the environment sets the collector's percent
// or memory limit.
func envTunesGC() bool {
	_, gogc := os.LookupEnv("GOGC")
	_, limit := os.LookupEnv("GOMEMLIMIT")
	return gogc || limit
}
