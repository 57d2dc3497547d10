package index

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"golang.org/x/sys/unix"
)

// ErrLocked is the error of Lock and Open on an index directory another
// process holds.
var ErrLocked = errors.New("in use by another process")

// DirLock is a process's claim on an index directory: while one process
// holds it, no other can Lock the directory or Open an index in it. Two
// servers on one directory would otherwise remove each other's live index
// on every rebuild and go on serving from deleted files.
//
// It is an advisory flock(2) on the directory itself, not on a file in it:
// a read-only directory holding a reusable index can still be locked, and
// the kernel drops the lock when the process dies, so a crash leaves
// nothing to clean up.
type DirLock struct {
	path string
	f    *os.File
}

// held are the directories this process has locked, by absolute path: a
// second flock from the same process would conflict with its own lock.
var (
	heldMu sync.Mutex
	held   = map[string]*DirLock{}
)

// Lock claims dir (creating it if needed) for this process until Unlock.
// It fails at once, wrapping ErrLocked, if another process or another
// Lock of this one holds it.
func Lock(dir string) (*DirLock, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("lock index directory %s: %w", dir, err)
	}
	heldMu.Lock()
	defer heldMu.Unlock()
	if _, ok := held[abs]; ok {
		return nil, fmt.Errorf("lock index directory %s: %w (this process holds it already)", dir, ErrLocked)
	}
	f, err := flockDir(abs)
	if err != nil {
		return nil, fmt.Errorf("lock index directory %s: %w", dir, err)
	}
	l := &DirLock{path: abs, f: f}
	held[abs] = l
	return l, nil
}

// Unlock releases the directory.
func (l *DirLock) Unlock() error {
	heldMu.Lock()
	defer heldMu.Unlock()
	if held[l.path] == l {
		delete(held, l.path)
	}
	return l.f.Close() // closing the descriptor drops the flock
}

// flockDir opens dir and takes an exclusive, non-blocking flock on it.
func flockDir(dir string) (*os.File, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	for {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, ErrLocked
		}
		return nil, fmt.Errorf("flock: %w", err)
	}
	return f, nil
}

// lockedHere says whether this process holds dir.
func lockedHere(dir string) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	heldMu.Lock()
	defer heldMu.Unlock()
	_, ok := held[abs]
	return ok
}
