package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/rs/zerolog"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search"
)

// library is what the terminal commands answer from: the engine, the
// talks it holds by id (for what a hit does not carry: its conference
// and zone), and how many conferences and years they span.
type library struct {
	engine *search.Engine
	talks  map[string]*index.Talk
	// conferences are the ids of the conferences loaded, sorted, and
	// names their names (lower case, and the ids themselves) → id.
	conferences []string
	names       map[string]string
	// mixed: the talks span several conferences or several years, so a
	// line must name both to be read alone.
	mixed bool
	lock  *index.DirLock
}

func (l *library) Close() {
	l.engine.Close()
	if l.lock != nil {
		l.lock.Unlock()
	}
}

// openLibrary loads the talks and their engine. With dir (--index) it
// opens them as serve does (loadServeCorpus, indexFunc): the first call
// parses the seeds and builds the index in dir, keeping the corpus and
// the engine's derivations beside it; a later call on the same seed files
// and program reads those instead of parsing and indexing again. Without
// dir, the seeds are parsed and indexed in memory.
func (g *globals) openLibrary(dir string) (*library, error) {
	log, err := g.terminalLog()
	if err != nil {
		return nil, err
	}
	l := &library{}
	if dir != "" {
		// Held until Close, as serve holds it: the corpus is kept after
		// the index is opened, and another process must not rebuild the
		// directory in between.
		if l.lock, err = index.Lock(dir); err != nil {
			if errors.Is(err, index.ErrLocked) {
				err = fmt.Errorf("%w (a server using it? ask it over HTTP, or give search another --index)", err)
			}
			return nil, fmt.Errorf("--index %s: %w", dir, err)
		}
	}
	fail := func(err error) (*library, error) {
		if l.lock != nil {
			l.lock.Unlock()
		}
		return nil, err
	}
	c, src, keep, err := g.loadServeCorpus(dir, log) // keep.go
	if err != nil {
		return fail(err)
	}
	switch {
	case src.Kept:
		log.Debug().Str("path", dir).Msg("talks read from the corpus kept with the index")
	case src.Reason != "":
		log.Debug().Str("reason", src.Reason).Msg("talks read from the seeds")
	default:
		log.Debug().Msg("talks read from the seeds")
	}
	if len(c.Talks) == 0 {
		why := noTalksError(c.Report)
		if why == nil {
			why = errors.New("the seeds hold none (see the warnings)")
		}
		return fail(fmt.Errorf("no talks to search: %w", why))
	}
	if dir != "" && !src.Kept {
		// A rebuild here would lose, for the next serve, the talks of a
		// deleted seed file without its refusal (checkPersistedDrop). A
		// kept corpus is the index's own: nothing to compare.
		if before, ok := index.PersistedSources(dir); ok {
			if err := dropped(before, c.Talks).err("serve --allow-drop"); err != nil {
				return fail(fmt.Errorf("--index %s: the seeds differ from the indexed ones: %w", dir, err))
			}
		}
	}
	// One query, then the process ends: nothing is prepared for more.
	if l.engine, err = search.NewWithOptions(c.Talks, search.Options{Index: indexFunc(g, dir, log), OneShot: true}); err != nil {
		return fail(fmt.Errorf("index talks: %w", err))
	}
	keep(nil) // logged: the next call ingests again
	if k := l.engine.Kept(); dir != "" {
		log.Debug().Strs("derivations_kept", k.Loaded).Strs("derived", k.Derived).Msg("engine ready")
		for _, p := range k.Problems {
			log.Warn().Str("problem", p).Msg("a kept derivation was not used or not saved")
		}
	}

	l.talks = make(map[string]*index.Talk, len(c.Talks))
	l.names = map[string]string{}
	years := map[int]bool{}
	for i := range c.Talks {
		t := &c.Talks[i]
		l.talks[t.ID] = t
		if id := t.Conference.ID; id != "" {
			l.names[strings.ToLower(id)] = id
			if t.Conference.Name != "" {
				l.names[strings.ToLower(t.Conference.Name)] = id
			}
		}
		if t.Start != nil {
			years[t.Local(*t.Start).Year()] = true
		}
	}
	l.conferences = slices.Sorted(maps.Values(l.names))
	l.conferences = slices.Compact(l.conferences)
	l.mixed = len(l.conferences) > 1 || len(years) > 1
	return l, nil
}

// conferenceIDs maps the --conference values (ids or names, in any case)
// onto conference ids.
func (l *library) conferenceIDs(values []string) ([]string, error) {
	var ids []string
	for _, v := range values {
		id, ok := l.names[strings.ToLower(strings.TrimSpace(v))]
		if !ok {
			return nil, fmt.Errorf("--conference %q: no such conference; loaded: %s: %w", v, strings.Join(l.conferences, ", "), search.ErrInvalid)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// terminalLog is the logger of the commands whose output a person reads:
// what loadServeCorpus and indexFunc log reaches stderr as plain lines
// (ingestion warnings as "warning: file:line: message", as loadCorpus
// prints them). It shows warnings and errors unless --log-level asks for
// more (or less): the "index reused" of every call would be noise.
func (g *globals) terminalLog() (zerolog.Logger, error) {
	level := zerolog.WarnLevel
	if g.logLevel != "info" { // the default: keep to warnings
		l, err := zerolog.ParseLevel(g.logLevel)
		if err != nil {
			return zerolog.Nop(), usage(fmt.Errorf("--log-level %q: %w", g.logLevel, err))
		}
		level = l
	}
	return zerolog.New(plainLog{g.stderr}).Level(level), nil
}

// plainLog writes zerolog's JSON entries as lines for a person.
type plainLog struct{ w io.Writer }

func (p plainLog) Write(b []byte) (int, error) {
	var e map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&e); err != nil {
		_, err := p.w.Write(b)
		return len(b), err
	}
	level, _ := e["level"].(string)
	msg, _ := e["message"].(string)
	if level == "warn" {
		level = "warning"
	}
	file, hasFile := e["file"].(string)
	line, hasLine := e["line"].(json.Number)
	var out string
	if hasFile && hasLine {
		out = fmt.Sprintf("%s: %s:%s: %s\n", level, file, line, msg)
	} else {
		delete(e, "level")
		delete(e, "message")
		var attrs []string
		for _, k := range slices.Sorted(maps.Keys(e)) {
			attrs = append(attrs, fmt.Sprintf("%s=%v", k, e[k]))
		}
		out = level + ": " + msg
		if len(attrs) > 0 {
			out += " (" + strings.Join(attrs, ", ") + ")"
		}
		out += "\n"
	}
	_, err := io.WriteString(p.w, out)
	return len(b), err
}
