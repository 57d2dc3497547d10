package ingest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"path/filepath"
	"time"
)

// Source is one --seeds value: a file or a directory on disk, or the bytes
// of a file fetched from elsewhere (a URL), each with its own zone where
// several conferences are read together.
type Source struct {
	// Path is the file or directory on disk; for a fetched source, the
	// name it is reported by (warnings, Talk.Sources): its URL.
	Path string
	// Fetched says Path is not on disk: Data are its bytes, or Err says
	// why there are none (a whole-file warning, the other sources load).
	Fetched bool
	Data    []byte
	Err     error
	// Zone is the zone of this source's times that name none; nil:
	// Options.TimeZone.
	Zone *time.Location
}

// SourcesKey is the SHA-256 of everything LoadPaths(paths, opt) depends on
// but the code: each file's name and bytes, the refusals met while listing
// them and opt's zone. Equal keys, equal corpora: a corpus kept from an
// earlier run under its key (LoadPathsKeyed) can stand in for parsing the
// files again. Code changes are the keeper's to notice (index.Sidecar keys
// what it keeps by the program's build). The files are streamed, not held.
func SourcesKey(paths []string, opt Options) (string, error) {
	return KeySources(pathSources(paths), opt)
}

// KeySources is SourcesKey of sources, each source's own zone included.
func KeySources(srcs []Source, opt Options) (string, error) {
	inputs, warns, err := listSources(srcs)
	if err != nil {
		return "", err
	}
	k := newSourcesHash(warns, opt)
	for _, in := range inputs {
		f, err := in.open()
		if err != nil {
			return "", fmt.Errorf("read seed %s: %w", in.name, err)
		}
		fh := sha256.New()
		n, err := io.Copy(fh, ctxReader{f, opt.Context})
		f.Close()
		if err != nil {
			return "", fmt.Errorf("read seed %s: %w", in.name, err)
		}
		k.file(in, n, fh)
	}
	return k.key(), nil
}

// LoadPathsKeyed is LoadPaths, also returning the SourcesKey of the bytes
// it parsed (each file is read once: a file changed meanwhile is keyed as
// it was read).
func LoadPathsKeyed(paths []string, opt Options) (*Corpus, string, error) {
	return LoadSourcesKeyed(pathSources(paths), opt)
}

// LoadSources ingests sources as LoadPaths ingests paths, each read in its
// own zone if it has one.
func LoadSources(srcs []Source, opt Options) (*Corpus, error) {
	inputs, warns, err := listSources(srcs)
	if err != nil {
		return nil, err
	}
	return load(inputs, opt, warns)
}

// LoadSourcesKeyed is LoadSources, also returning the KeySources of the
// bytes it parsed.
func LoadSourcesKeyed(srcs []Source, opt Options) (*Corpus, string, error) {
	inputs, warns, err := listSources(srcs)
	if err != nil {
		return nil, "", err
	}
	k := newSourcesHash(warns, opt)
	for i := range inputs {
		in := &inputs[i]
		fh := sha256.New()
		if in.size > opt.maxFile() {
			// Streamed by load (JSON Lines): hashed as a stream too.
			f, err := in.open()
			if err != nil {
				return nil, "", fmt.Errorf("read seed %s: %w", in.name, err)
			}
			in.size, err = io.Copy(fh, ctxReader{f, opt.Context})
			f.Close()
			if err != nil {
				return nil, "", fmt.Errorf("read seed %s: %w", in.name, err)
			}
		} else {
			data, err := in.read(opt.maxFile())
			if err != nil {
				return nil, "", fmt.Errorf("read seed %s: %w", in.name, err)
			}
			fh.Write(data)
			in.size = int64(len(data))
			in.read = func(int64) ([]byte, error) { return data, nil }
			in.open = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
		}
		k.file(*in, in.size, fh)
	}
	c, err := load(inputs, opt, warns)
	if err != nil {
		return nil, "", err
	}
	return c, k.key(), nil
}

func pathSources(paths []string) []Source {
	srcs := make([]Source, len(paths))
	for i, p := range paths {
		srcs[i] = Source{Path: p}
	}
	return srcs
}

// listSources lists the inputs of sources: the files on disk as listPaths
// lists them (names, links, documentation), then the fetched files under
// their names. A file is read in the zone of the first source naming it.
func listSources(srcs []Source) ([]input, []Warning, error) {
	var paths []string
	for _, s := range srcs {
		if !s.Fetched {
			paths = append(paths, s.Path)
		}
	}
	var inputs []input
	var warns []Warning
	if len(paths) > 0 {
		var err error
		if inputs, warns, err = listPaths(paths); err != nil {
			return nil, nil, err
		}
	}
	for i := range inputs {
		inputs[i].zone = zoneOf(srcs, inputs[i].path)
	}
	seen := map[string]bool{}
	for _, s := range srcs {
		if !s.Fetched || seen[s.Path] {
			continue
		}
		seen[s.Path] = true
		if s.Err != nil {
			warns = append(warns, Warning{File: s.Path, Msg: fmt.Sprintf("not fetched, and no earlier copy: %v", s.Err)})
			continue
		}
		data := s.Data
		inputs = append(inputs, input{name: s.Path, size: int64(len(data)), zone: s.Zone,
			read: func(int64) ([]byte, error) { return data, nil },
			open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }})
	}
	return inputs, warns, nil
}

// zoneOf is the zone of the first source on disk that names the file at
// path, itself or as its directory's.
func zoneOf(srcs []Source, path string) *time.Location {
	for _, s := range srcs {
		if s.Fetched {
			continue
		}
		if p := filepath.Clean(s.Path); p == path || p == filepath.Dir(path) {
			return s.Zone
		}
	}
	return nil
}

// options are the Options an input is read with: its source's zone, if it
// has one, for times that name none.
func (in input) options(opt Options) Options {
	if in.zone != nil {
		opt.TimeZone = in.zone
	}
	return opt
}

type sourcesHash struct{ h hash.Hash }

func newSourcesHash(warns []Warning, opt Options) sourcesHash {
	h := sha256.New()
	zone := ""
	if opt.TimeZone != nil {
		zone = opt.TimeZone.String()
	}
	fmt.Fprintf(h, "talksearch sources 1\nzone %q\n", zone)
	if opt.maxFile() != MaxFileSize || opt.maxLine() != MaxLineSize {
		// Only then, as for zones below: other limits read other talks.
		fmt.Fprintf(h, "limits %d %d\n", opt.maxFile(), opt.maxLine())
	}
	for _, w := range warns {
		fmt.Fprintf(h, "warning %q\n", w.String())
	}
	return sourcesHash{h}
}

func (k sourcesHash) file(in input, size int64, content hash.Hash) {
	fmt.Fprintf(k.h, "file %q %d %x\n", in.name, size, content.Sum(nil))
	if in.zone != nil {
		// Only then: the key of sources without zones of their own is
		// what it was before sources had them.
		fmt.Fprintf(k.h, "file zone %q\n", in.zone.String())
	}
}

func (k sourcesHash) key() string { return hex.EncodeToString(k.h.Sum(nil)) }

// KeptCorpus is a Corpus in the form it is kept in between runs (gob, in
// an index.Sidecar). Gob keeps a time's instant and offset but not its
// zone, which pages show ("CET"): the zone names travel beside the talks.
type KeptCorpus struct {
	Corpus     *Corpus
	StartZones []string // per talk, Start's Location name ("" for none)
	EndZones   []string
}

// Keep returns c's kept form; c is shared, not copied.
func Keep(c *Corpus) KeptCorpus {
	k := KeptCorpus{Corpus: c, StartZones: make([]string, len(c.Talks)), EndZones: make([]string, len(c.Talks))}
	for i, t := range c.Talks {
		if t.Start != nil {
			k.StartZones[i] = t.Start.Location().String()
		}
		if t.End != nil {
			k.EndZones[i] = t.End.Location().String()
		}
	}
	return k
}

// Restore returns the corpus kept, its times back in their zones.
func (k KeptCorpus) Restore() (*Corpus, error) {
	c := k.Corpus
	if c == nil || len(k.StartZones) != len(c.Talks) || len(k.EndZones) != len(c.Talks) {
		return nil, fmt.Errorf("kept corpus: zones do not match its talks")
	}
	zones := map[string]*time.Location{}
	for i := range c.Talks {
		t := &c.Talks[i]
		t.Start = keptZone(t.Start, k.StartZones[i], zones)
		t.End = keptZone(t.End, k.EndZones[i], zones)
	}
	return c, nil
}

// keptZone is t in the zone named name, as Keep found it; zones caches the
// zones loaded.
func keptZone(t *time.Time, name string, zones map[string]*time.Location) *time.Time {
	if t == nil || name == "" {
		return t // gob restores unnamed fixed zones and UTC as they were
	}
	_, off := t.Zone()
	loc, ok := zones[name]
	if !ok {
		switch l, err := time.LoadLocation(name); {
		case err == nil:
			loc = l
		default:
			// A zone the source named but the system does not know:
			// its name and offset are all there was.
			loc = time.FixedZone(name, off)
		}
		zones[name] = loc
	}
	u := t.In(loc)
	if _, o := u.Zone(); o != off {
		// A fixed zone named like a zone of rules ("CET" in July):
		// the offset is what the source said.
		u = t.In(time.FixedZone(name, off))
	}
	return &u
}
