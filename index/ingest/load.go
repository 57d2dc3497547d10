package ingest

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// input is one file to ingest.
type input struct {
	name string // as reported: the path given, or the name in the fs.FS
	size int64
	skip bool                            // documentation beside the seeds (README, LICENSE, *.md): listed, not read
	read func(max int64) ([]byte, error) // the whole file, at most max bytes (else ErrTooLarge)
	open func() (io.ReadCloser, error)   // for streaming large JSON Lines
	path string                          // on disk, cleaned ("" for an fs.FS or fetched bytes)
	zone *time.Location                  // the source's own zone (sources.go); nil: Options.TimeZone
}

// isDocumentation: the files that sit beside data in a folder and are no
// conference's data. Every other file is read and detected by content.
func isDocumentation(name string) bool {
	base := strings.ToUpper(name)
	for _, p := range []string{"README", "LICENSE", "LICENCE", "COPYING", "NOTICE", "CHANGELOG"} {
		if strings.HasPrefix(base, p) {
			return true
		}
	}
	return strings.HasSuffix(base, ".MD")
}

// LoadFS ingests every file at the top of fsys (sub-directories are not
// read; hidden files and documentation are skipped): the embedded seeds,
// or any fs.FS. Formats are detected by content.
func LoadFS(fsys fs.FS, opt Options) (*Corpus, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("list seeds: %w", err)
	}
	var inputs []input
	var warns []Warning
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || e.IsDir() {
			continue
		}
		if e.Type()&fs.ModeSymlink != 0 {
			// An fs.FS cannot say where a link points: os.DirFS follows
			// it anywhere, so a link is refused unless it is read from disk
			// through LoadPaths.
			warns = append(warns, Warning{File: name, Msg: "symbolic link: not read from this folder"})
			continue
		}
		info, err := e.Info()
		if err != nil {
			return nil, fmt.Errorf("stat seed %s: %w", name, err)
		}
		if err := checkRegular(info); err != nil {
			warns = append(warns, Warning{File: name, Msg: err.Error()})
			continue
		}
		open := func() (io.ReadCloser, error) { return fsys.Open(name) }
		inputs = append(inputs, input{name: name, size: info.Size(), skip: isDocumentation(name),
			read: func(max int64) ([]byte, error) { return readLimited(open, max) }, open: open})
	}
	return load(inputs, opt, warns)
}

// LoadPaths ingests seed files and directories on disk, each path a file
// or a directory (read non-recursively, as LoadFS). A file in a directory
// that is a symbolic link resolving outside that directory is refused with
// a warning; a file named on the command line may be a link to anywhere.
// Talks name their files by the path given joined with the file's name.
func LoadPaths(paths []string, opt Options) (*Corpus, error) {
	inputs, warns, err := listPaths(paths)
	if err != nil {
		return nil, err
	}
	return load(inputs, opt, warns)
}

// listPaths lists the inputs of LoadPaths, with the warnings about files
// it refuses.
func listPaths(paths []string) ([]input, []Warning, error) {
	var inputs []input
	var warns []Warning
	seen := map[string]bool{}
	var fullPaths []string
	addFile := func(p string, info os.FileInfo) {
		p = filepath.Clean(p)
		if seen[p] {
			return
		}
		seen[p] = true
		fullPaths = append(fullPaths, p)
		open := func() (io.ReadCloser, error) { return OpenRegular(p) }
		inputs = append(inputs, input{path: p, size: info.Size(), open: open,
			read: func(max int64) ([]byte, error) { return readLimited(open, max) }})
	}
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, nil, fmt.Errorf("seeds %s: %w", p, err)
		}
		if !info.IsDir() {
			// Named on the command line: a FIFO or a device there is a
			// mistake to say at once, before anything is opened.
			if err := checkRegular(info); err != nil {
				return nil, nil, fmt.Errorf("seeds %s: %w", p, err)
			}
			addFile(p, info)
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return nil, nil, fmt.Errorf("list seeds %s: %w", p, err)
		}
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			return nil, nil, fmt.Errorf("seeds %s: %w", p, err)
		}
		for _, e := range entries {
			name := filepath.Join(p, e.Name())
			if strings.HasPrefix(e.Name(), ".") {
				continue
			}
			if e.Type()&fs.ModeSymlink != 0 {
				target, err := filepath.EvalSymlinks(name)
				if err != nil {
					warns = append(warns, Warning{File: name, Msg: fmt.Sprintf("broken symbolic link: %v", err)})
					continue
				}
				if rel, err := filepath.Rel(real, target); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
					warns = append(warns, Warning{File: name, Msg: fmt.Sprintf("symbolic link to %s, outside its folder: refused", target)})
					continue
				}
			}
			fi, err := os.Stat(name)
			if err != nil {
				return nil, nil, fmt.Errorf("stat seed %s: %w", name, err)
			}
			if fi.IsDir() {
				warns = append(warns, Warning{File: filepath.Clean(name), Msg: "a directory inside a seeds directory: not read (name it with --seeds to read it)"})
				continue
			}
			if err := checkRegular(fi); err != nil {
				warns = append(warns, Warning{File: filepath.Clean(name), Msg: err.Error()})
				continue
			}
			if isDocumentation(e.Name()) {
				continue
			}
			addFile(name, fi)
		}
	}
	names := displayNames(fullPaths)
	for i := range inputs {
		inputs[i].name = names[i]
	}
	return inputs, warns, nil
}

// displayNames are the names files are reported by (warnings, Sources):
// the file's own name ("fosdem-2025.xml"), so that a corpus does not
// depend on where its files sit; with its folder when the name is generic
// ("camp2019/schedule.json", which also names the conference); the whole
// path when two files would share a name.
func displayNames(paths []string) []string {
	names := make([]string, len(paths))
	count := map[string]int{}
	for i, p := range paths {
		base := filepath.Base(p)
		stem := strings.ToLower(strings.TrimSuffix(base, filepath.Ext(base)))
		if genericNames[stem] {
			if dir := filepath.Base(filepath.Dir(p)); dir != "." && dir != ".." && dir != string(filepath.Separator) {
				base = dir + "/" + base
			}
		}
		names[i] = base
		count[base]++
	}
	for i, p := range paths {
		if count[names[i]] > 1 {
			names[i] = filepath.ToSlash(p)
		}
	}
	return names
}

// ParseZone reads the --time-zone value, an IANA zone name such as
// "Europe/Brussels"; "" is no zone.
func ParseZone(name string) (*time.Location, error) {
	if name == "" {
		return nil, nil
	}
	if name == "Local" {
		return nil, fmt.Errorf("time zone %q: name the conference's zone (e.g. Europe/Brussels), not the host's", name)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("time zone %q: %w", name, err)
	}
	return loc, nil
}
