package overlap

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/talksearch/talksearch/index/synthetic"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/ingest"
	"github.com/talksearch/talksearch/seeds"
)

// seedWords is the running text of the seeds' abstracts, word by word: the
// shared, topic-neutral language of the synthetic submissions.
var seedWords = sync.OnceValue(func() []string {
	c, err := ingest.Load(seeds.FS)
	if err != nil {
		panic(fmt.Sprintf("load seeds: %v", err)) // the seeds are embedded; package tests load them too
	}
	var words []string
	for _, t := range c.Talks {
		words = append(words, strings.Fields(t.Abstract)...)
	}
	return words
})

// syllables make invented words: each number names one word ("kalotu").
var syllables = func() []string {
	var out []string
	for _, c := range "bdfgklmnprstvz" {
		for _, v := range "aeiou" {
			out = append(out, string(c)+string(v))
		}
	}
	return out
}()

func inventedWord(k int) string {
	var b strings.Builder
	for range 3 {
		b.WriteString(syllables[k%len(syllables)])
		k /= len(syllables)
	}
	return b.String()
}

// syntheticSubmissions returns n submissions shaped like a call for papers,
// the same for the same n and seed. index.Synthetic (random walks on the
// seeds' word bigrams) makes every talk a blend of the same 73 seeds, so a
// fixed share of all pairs look alike and the output itself grows as n²;
// a call for papers has topics instead, so these do:
//
//   - n/15 topics of 25 invented terms each (a term's frequency within its
//     topic falls off quadratically); one talk in five is about one of the
//     hottest tenth of the topics, so topic sizes vary;
//   - each talk has a topic, and two in five a second one; a third of its
//     words come from its topic, some from the second, the rest is the
//     seeds' running text (generic and technical words at their frequency);
//   - one talk in 50 is an edited copy of an earlier one (8% of its words
//     dropped or replaced), one in 200 an identical copy, one in 100 a break;
//   - three in four are scheduled: 3 days of 16 half-hour slots in 20 rooms.
func syntheticSubmissions(n int, seed uint64) []index.Talk {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	generic := seedWords()
	topics := max(20, n/15)
	topicWord := func(topic int) string {
		k := int(25 * r.Float64() * r.Float64())
		return inventedWord(topic*25 + k)
	}
	pickTopic := func() int {
		if r.IntN(5) == 0 {
			return r.IntN(max(1, topics/10))
		}
		return r.IntN(topics)
	}
	base := time.Date(2026, 4, 7, 9, 0, 0, 0, time.UTC)
	talks := make([]index.Talk, n)
	for k := range talks {
		t := index.Talk{ID: fmt.Sprintf("sub-%05d", k), Kind: index.KindTalk, Sources: []string{"synthetic"}}
		switch {
		case k > 0 && k%200 == 0:
			src := talks[r.IntN(k)]
			t.Title, t.Abstract = src.Title, src.Abstract
		case k > 0 && k%50 == 0:
			src := talks[r.IntN(k)]
			t.Title, t.Abstract = src.Title, editWords(r, src.Abstract, 0.08)
		case k%100 == 1:
			t.Title, t.Kind = "Coffee Break", index.KindBreak
		default:
			main, second := pickTopic(), -1
			if r.IntN(5) < 2 {
				second = pickTopic()
			}
			word := func(topicShare float64) string {
				switch x := r.Float64(); {
				case x < topicShare:
					return topicWord(main)
				case second >= 0 && x < topicShare+0.08:
					return topicWord(second)
				default:
					return generic[r.IntN(len(generic))]
				}
			}
			var title []string
			for range 5 + r.IntN(5) {
				title = append(title, word(0.5))
			}
			t.Title = strings.Join(title, " ")
			var b strings.Builder
			for w := range 100 + r.IntN(120) {
				switch {
				case w == 0:
				case w%60 == 0:
					b.WriteString(".\n\n")
				case w%15 == 0:
					b.WriteString(". ")
				default:
					b.WriteByte(' ')
				}
				b.WriteString(word(0.33))
			}
			t.Abstract = b.String() + "."
		}
		if r.IntN(4) > 0 {
			start := base.Add(time.Duration(r.IntN(3))*24*time.Hour + time.Duration(r.IntN(16))*30*time.Minute)
			end := start.Add(30 * time.Minute)
			t.Start, t.End, t.Scheduled = &start, &end, true
			t.Room = fmt.Sprintf("Room %d", 1+r.IntN(20))
		}
		talks[k] = t
	}
	return talks
}

// editWords drops or replaces about share of the words of text.
func editWords(r *rand.Rand, text string, share float64) string {
	words := strings.Fields(text)
	out := words[:0:0]
	for _, w := range words {
		switch x := r.Float64(); {
		case x < share/2:
		case x < share:
			out = append(out, "revised")
		default:
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}

func benchmarkDetect(b *testing.B, talks []index.Talk) {
	b.ResetTimer()
	var rep *Report
	for range b.N {
		rep = Detect(talks, Options{})
	}
	b.ReportMetric(float64(len(rep.Pairs)+rep.More), "pairs")
	b.ReportMetric(float64(len(rep.Clashes)), "clashes")
}

// go test -run XXX -bench Detect -benchtime 1x ./search/overlap
func BenchmarkDetect1k(b *testing.B)  { benchmarkDetect(b, syntheticSubmissions(1000, 1)) }
func BenchmarkDetect10k(b *testing.B) { benchmarkDetect(b, syntheticSubmissions(10000, 1)) }
func BenchmarkDetect20k(b *testing.B) { benchmarkDetect(b, syntheticSubmissions(20000, 1)) }
func BenchmarkDetect50k(b *testing.B) { benchmarkDetect(b, syntheticSubmissions(50000, 1)) }

// synthetic.Talks are all blends of the same seeds: 10k of them
// have some 700k pairs above the default threshold, the worst case of an
// output-bound search.
func BenchmarkDetectSeedBlend10k(b *testing.B) {
	benchmarkDetect(b, synthetic.Talks(seedTalks(b), 10000, 1))
}
