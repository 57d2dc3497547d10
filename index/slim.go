package index

// Slim is a corpus whose abstracts and descriptions are in a TextStore
// rather than in its talks: a large corpus read as a stream (TextWriter)
// never holds every talk whole. Talk i's texts are the store's talk i.
// With a nil Texts the talks are whole, as a plain []Talk is.
type Slim struct {
	Talks []Talk
	Texts *TextStore
	// at says where each talk is in Talks once they were reordered in
	// place (Moved): talk i is Talks[at[i]]; nil means talk i is Talks[i].
	at []int32
}

// Moved is c after its owner reordered c.Talks in place, talk i (whose
// texts stay the store's talk i) moving to at[i]: the same corpus, in its
// order, without a second array of its talks. at is kept, not copied.
func (c Slim) Moved(at []int32) Slim {
	c.at = at
	return c
}

// slot is where talk i is in c.Talks.
func (c Slim) slot(i int) int {
	if c.at == nil {
		return i
	}
	return int(c.at[i])
}

// Whole wraps talks that hold their own texts.
func Whole(talks []Talk) Slim { return Slim{Talks: talks} }

// Len is the number of talks.
func (c Slim) Len() int { return len(c.Talks) }

// Talk is talk i with its abstract and description: a copy when they are
// in the store.
func (c Slim) Talk(i int) Talk {
	t := c.Talks[c.slot(i)]
	if c.Texts != nil {
		c.Texts.Fill(i, &t)
	}
	return t
}

// Each calls fn with each talk whole, in order. fn must not keep t, nor
// anything pointing into its texts beyond the call: when the texts are in
// the store, t is one scratch talk filled again for the next call.
func (c Slim) Each(fn func(i int, t *Talk)) { c.EachEvery(1, fn) }

// EachEvery is Each of talks 0, step, 2×step and so on: a sample of the
// corpus in its order.
func (c Slim) EachEvery(step int, fn func(i int, t *Talk)) {
	step = max(step, 1)
	var t Talk
	for i := 0; i < len(c.Talks); i += step {
		if c.Texts == nil {
			fn(i, &c.Talks[c.slot(i)])
			continue
		}
		t = c.Talks[c.slot(i)]
		c.Texts.Fill(i, &t)
		fn(i, &t)
	}
}

// batch is talks from to to whole: the slice itself when they are, else
// copies filled from the store, which the batch's index drops once it is
// in.
func (c Slim) batch(from, to int) []Talk {
	if c.Texts == nil && c.at == nil {
		return c.Talks[from:to]
	}
	out := make([]Talk, to-from)
	for i := range out {
		out[i] = c.Talk(from + i)
	}
	return out
}

// SlimOf moves talks' texts into a new store whose file, if they need
// one, is in dir ("" is the system's temporary directory): a corpus read
// whole becomes one that holds no text on the heap once talks is dropped.
// talks is left as it was.
func SlimOf(dir string, talks []Talk) (Slim, error) {
	w := NewTextWriter(dir)
	slim := make([]Talk, len(talks))
	for i, t := range talks {
		w.Add(t.Abstract, t.Description)
		t.Abstract, t.Description = "", ""
		slim[i] = t
	}
	texts, err := w.Store()
	if err != nil {
		return Slim{}, err
	}
	return Slim{Talks: slim, Texts: texts}, nil
}
