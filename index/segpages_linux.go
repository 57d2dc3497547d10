package index

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"syscall"
)

const canDropPages = true

// fileID is a file's device and inode, as /proc/self/maps names them.
type fileID struct {
	major, minor uint64
	ino          uint64
}

// dropMappedFiles tells the kernel that the process no longer needs the
// pages it has mapped of the files at paths (MADV_DONTNEED): they leave its
// resident memory and stay in the page cache. On a mapping of a file,
// shared or private but never written, that loses nothing; the caller makes
// sure that the mappings outlive the call. Mappings are found by the
// files' device and inode, not by name, which may be relative or reached
// through a symbolic link.
func dropMappedFiles(paths []string) {
	want := make(map[fileID]bool, len(paths))
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			continue
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok {
			continue
		}
		dev := uint64(st.Dev)
		// Linux's encoding of a dev_t (major 12 bits, minor 20).
		major := (dev>>8)&0xfff | (dev>>32)&^0xfff
		minor := dev&0xff | (dev>>12)&^0xff
		want[fileID{major, minor, st.Ino}] = true
	}
	if len(want) == 0 {
		return
	}
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		start, end, id, ok := parseMapsLine(sc.Bytes())
		if !ok || !want[id] {
			continue
		}
		syscall.Syscall(syscall.SYS_MADVISE, uintptr(start), uintptr(end-start), syscall.MADV_DONTNEED)
	}
}

// parseMapsLine reads the address range and the file of one line of
// /proc/PID/maps: "start-end perms offset major:minor inode path".
func parseMapsLine(line []byte) (start, end uint64, id fileID, ok bool) {
	f := bytes.Fields(line)
	if len(f) < 6 {
		return 0, 0, fileID{}, false
	}
	addr, dev := bytes.Split(f[0], []byte("-")), bytes.Split(f[3], []byte(":"))
	if len(addr) != 2 || len(dev) != 2 {
		return 0, 0, fileID{}, false
	}
	var err [5]error
	start, err[0] = strconv.ParseUint(string(addr[0]), 16, 64)
	end, err[1] = strconv.ParseUint(string(addr[1]), 16, 64)
	id.major, err[2] = strconv.ParseUint(string(dev[0]), 16, 64)
	id.minor, err[3] = strconv.ParseUint(string(dev[1]), 16, 64)
	id.ino, err[4] = strconv.ParseUint(string(f[4]), 10, 64)
	for _, e := range err {
		if e != nil {
			return 0, 0, fileID{}, false
		}
	}
	return start, end, id, id.ino != 0 && end > start
}
