package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// row is one engine on one corpus.
type row struct {
	corpus  string
	st      stats
	rssMiB  float64
	load    string // 1-minute load average when the row ended
	skipped string
}

func sideBySide(ctx context.Context, cfg config, stdout, stderr io.Writer) error {
	began := time.Now()
	loadStart := loadAvg()
	work := cfg.workDir
	if work == "" {
		var err error
		if work, err = os.MkdirTemp("", "sidebyside-"); err != nil {
			return err
		}
		if !cfg.keep {
			defer os.RemoveAll(work)
		}
	} else if err := os.MkdirAll(work, 0o755); err != nil {
		return err
	}
	// The PostgreSQL peer's cluster lives under work and runs as user
	// postgres, who must be able to reach it.
	if err := os.Chmod(work, 0o755); err != nil {
		return err
	}
	logf := func(format string, a ...any) { fmt.Fprintf(stderr, "sidebyside: "+format+"\n", a...) }
	logf("work directory %s", work)

	peers := filepath.Join(work, "peers")
	if err := os.RemoveAll(peers); err != nil {
		return err
	}
	if err := runLogged(ctx, "", filepath.Join(work, "copy.log"), nil, "cp", "-r", cfg.peersDir, peers); err != nil {
		return fmt.Errorf("copy %s: %w", cfg.peersDir, err)
	}
	if err := runLogged(ctx, "", filepath.Join(work, "copy.log"), nil, "chmod", "-R", "u+w", peers); err != nil {
		return fmt.Errorf("make %s writable: %w", peers, err)
	}
	// setup.sh is idempotent (apt-get only when a package is missing), and
	// it builds the Go and node peers: run.sh would otherwise build them
	// inside the first peer's measured run.
	logf("peers: setup.sh (log in %s)", filepath.Join(work, "setup.log"))
	if err := runLogged(ctx, peers, filepath.Join(work, "setup.log"), nil, "./setup.sh"); err != nil {
		return fmt.Errorf("peers setup.sh (see %s): %w", filepath.Join(work, "setup.log"), err)
	}
	pgEnv := []string{"PGDIR=" + filepath.Join(work, "pg"), "PGPORT=54391"}
	defer runLogged(context.WithoutCancel(ctx), peers, filepath.Join(work, "pg.log"), pgEnv, "peers/pg_ctl.sh", "stop")

	qs, err := readQueries(cfg.queries)
	if err != nil {
		return err
	}
	qfile := filepath.Join(work, "queries.txt")
	if err := os.WriteFile(qfile, []byte(strings.Join(qs, "\n")+"\n"), 0o644); err != nil {
		return err
	}

	seedsFile := filepath.Join(work, "seeds.jsonl")
	logf("exporting the seeds: go run ./cmd/talksearch export")
	if err := exportSeeds(ctx, cfg.repo, seedsFile); err != nil {
		return err
	}
	type corpus struct {
		name, file string
		peers      []string
	}
	var corpora []corpus
	for _, k := range cfg.corpora {
		switch k {
		case "seeds":
			corpora = append(corpora, corpus{"seeds", seedsFile, cfg.peers})
		case "synth":
			for _, n := range cfg.synth {
				f := cfg.synthFile
				if f == "" {
					f = filepath.Join(work, fmt.Sprintf("synth-%d.jsonl", n))
					logf("generating %d talks: gen_synth.py", n)
					if err := runLogged(ctx, peers, filepath.Join(work, "gen_synth.log"), nil,
						"/usr/bin/python3", "gen_synth.py", seedsFile, strconv.Itoa(n), f); err != nil {
						return fmt.Errorf("gen_synth.py: %w", err)
					}
				}
				corpora = append(corpora, corpus{fmt.Sprintf("%s generated", thousands(n)), f, cfg.synthPeer})
			}
		}
	}

	self, err := os.Executable()
	if err != nil {
		return err
	}
	var rows []row
	// An interrupted run still prints the rows it has.
	defer func() {
		if ctx.Err() != nil && len(rows) > 0 {
			writeTable(stdout, cfg, rows, began, loadStart, loadAvg())
		}
	}()
	for _, c := range corpora {
		for _, p := range c.peers {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			logf("%s: %s", c.name, p)
			r := runPeer(ctx, cfg, peers, work, c.file, qfile, p, pgEnv)
			r.corpus = c.name
			rows = append(rows, r)
			logRow(logf, r)
		}
		for _, m := range cfg.tsModes {
			modes := []string{"memory"}
			dir := ""
			if m == "disk" {
				modes = []string{"disk-build", "disk-restart"}
				dir = filepath.Join(work, "talksearch-index-"+filepath.Base(c.file))
				os.RemoveAll(dir)
			}
			for _, mode := range modes {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				logf("%s: talksearch %s", c.name, mode)
				args := []string{"--measure", c.file, "--mode", mode, "--iters", strconv.Itoa(cfg.iters),
					"--max-query", cfg.maxQuery.String(), "--queries", qfile}
				if dir != "" {
					args = append(args, "--index-dir", dir)
				}
				r := runChild(ctx, cfg, filepath.Join(work, "talksearch-"+mode+"-"+filepath.Base(c.file)+".log"), self, args)
				r.corpus = c.name
				rows = append(rows, r)
				logRow(logf, r)
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	var b bytes.Buffer
	writeTable(&b, cfg, rows, began, loadStart, loadAvg())
	if cfg.out != "" {
		if err := os.WriteFile(cfg.out, b.Bytes(), 0o644); err != nil {
			return err
		}
	}
	_, err = stdout.Write(b.Bytes())
	return err
}

func logRow(logf func(string, ...any), r row) {
	if r.skipped != "" {
		logf("  skipped: %s", r.skipped)
		return
	}
	logf("  build %.2f s, p50 %.0f µs, p99 %.0f µs, peak RSS %.0f MiB, load %s", r.st.IndexS, r.st.P50us, r.st.P99us, r.rssMiB, r.load)
}

// runPeer runs one peer on one corpus through the peers' run.sh, as
// scale.sh does, and reads its stats line.
func runPeer(ctx context.Context, cfg config, peers, work, corpus, qfile, peer string, pgEnv []string) row {
	res := filepath.Join(work, "results", filepath.Base(corpus), peer)
	if err := os.MkdirAll(res, 0o755); err != nil {
		return row{st: stats{Peer: peer}, skipped: err.Error()}
	}
	env := append([]string{"PEERS=" + peer, "ITERS=" + strconv.Itoa(cfg.iters),
		"MAX_QUERY_S=" + strconv.Itoa(int(cfg.maxQuery.Seconds())), "RESULTS=" + res,
		"WORK=" + filepath.Join(work, "index-"+filepath.Base(corpus))}, pgEnv...)
	log := filepath.Join(work, "peer-"+peer+"-"+filepath.Base(corpus)+".log")
	ctx, cancel := context.WithTimeout(ctx, cfg.timeout)
	defer cancel()
	cmd := command(ctx, peers, env, "./run.sh", corpus, qfile, qfile)
	r := row{st: stats{Peer: peer}}
	ru, err := runRusage(cmd, log)
	r.load = loadAvg()[0]
	if err != nil {
		r.skipped = fmt.Sprintf("%v (log: %s)", err, log)
		if strings.HasPrefix(peer, "postgres") {
			runLogged(context.WithoutCancel(ctx), peers, filepath.Join(work, "pg.log"), pgEnv, "peers/pg_ctl.sh", "stop")
		}
		return r
	}
	r.rssMiB = float64(ru.Maxrss) / 1024
	line, err := lastJSONLine(filepath.Join(res, "stats.jsonl"))
	if err == nil {
		err = json.Unmarshal(line, &r.st)
	}
	if err != nil {
		r.skipped = fmt.Sprintf("no stats: %v (log: %s)", err, log)
	}
	return r
}

// runChild runs the talksearch measurement in a process of its own.
func runChild(ctx context.Context, cfg config, log, self string, args []string) row {
	ctx, cancel := context.WithTimeout(ctx, cfg.timeout)
	defer cancel()
	var out bytes.Buffer
	cmd := command(ctx, "", nil, self, args...)
	r := row{st: stats{Peer: "talksearch"}}
	f, err := os.Create(log)
	if err != nil {
		r.skipped = err.Error()
		return r
	}
	defer f.Close()
	cmd.Stdout, cmd.Stderr = &out, f
	err = cmd.Run()
	r.load = loadAvg()[0]
	if err != nil {
		r.skipped = fmt.Sprintf("%v (log: %s)", err, log)
		return r
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.rssMiB = float64(ru.Maxrss) / 1024
	}
	if err := json.Unmarshal(bytes.TrimSpace(out.Bytes()), &r.st); err != nil {
		r.skipped = fmt.Sprintf("bad stats %q: %v", out.String(), err)
	}
	return r
}

// command is a process in a group of its own, killed whole when ctx ends:
// run.sh starts peers that start their own children.
func command(ctx context.Context, dir string, env []string, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	return cmd
}

// runRusage runs cmd with its output in log and returns its resource
// usage, whose peak RSS covers the process and every child it waited for.
func runRusage(cmd *exec.Cmd, log string) (*syscall.Rusage, error) {
	f, err := os.Create(log)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Run(); err != nil {
		return nil, err
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return nil, errors.New("no resource usage")
	}
	return ru, nil
}

func runLogged(ctx context.Context, dir, log string, env []string, name string, args ...string) error {
	f, err := os.OpenFile(log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	cmd := command(ctx, dir, env, name, args...)
	cmd.Stdout, cmd.Stderr = f, f
	return cmd.Run()
}

func exportSeeds(ctx context.Context, repo, out string) error {
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	defer f.Close()
	var errb bytes.Buffer
	cmd := command(ctx, repo, nil, "go", "run", "./cmd/talksearch", "export")
	cmd.Stdout, cmd.Stderr = f, &errb
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go run ./cmd/talksearch export in %s: %w: %s", repo, err, errb.String())
	}
	return f.Close()
}

func lastJSONLine(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var last []byte
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := bytes.TrimSpace(sc.Bytes()); bytes.HasPrefix(l, []byte("{")) {
			last = append(last[:0], l...)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if last == nil {
		return nil, fmt.Errorf("no JSON line in %s", path)
	}
	return last, nil
}

// loadAvg is the 1, 5 and 15 minute load averages.
func loadAvg() [3]string {
	b, err := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if err != nil || len(f) < 3 {
		return [3]string{"?", "?", "?"}
	}
	return [3]string{f[0], f[1], f[2]}
}

func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "?"
	}
	for l := range strings.Lines(string(b)) {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "?"
}

func writeTable(w io.Writer, cfg config, rows []row, began time.Time, l0, l1 [3]string) {
	fmt.Fprintf(w, "Run at %s, %s: %d × %s, %s; load average %s %s %s at the start, %s %s %s at the end.\n",
		began.UTC().Format("2006-01-02 15:04 MST"), time.Since(began).Round(time.Second), runtime.NumCPU(), cpuModel(),
		runtime.Version(), l0[0], l0[1], l0[2], l1[0], l1[1], l1[2])
	fmt.Fprintf(w, "Every engine: top 10 with highlights of title and abstract, one thread, %d passes over the queries at most %s;"+
		" talksearch also counts facets and the exact total, caches off.\n\n", cfg.iters, cfg.maxQuery)
	fmt.Fprintln(w, "| corpus | engine | build s | talks/s | ready s | index MiB | p50 µs | p99 µs | CPU µs/search | searches timed | peak RSS MiB | served RSS MiB | heap MiB | load |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, r := range rows {
		if r.skipped != "" {
			fmt.Fprintf(w, "| %s | %s | skipped: %s | | | | | | | | | | | %s |\n", r.corpus, r.st.Peer, r.skipped, r.load)
			continue
		}
		rate, ready := "", ""
		if r.st.IndexS > 0 {
			rate = thousands(int(float64(r.st.Docs) / r.st.IndexS))
		}
		if r.st.ReadyS > 0 {
			ready = fmt.Sprintf("%.2f", r.st.ReadyS)
		}
		size := ""
		if r.st.IndexBytes > 0 {
			size = fmt.Sprintf("%.1f", float64(r.st.IndexBytes)/(1<<20))
		}
		cpu := ""
		if r.st.CPUus > 0 {
			cpu = thousands(int(r.st.CPUus + 0.5))
		}
		served, heap := "", ""
		if r.st.ServedRSSMiB > 0 {
			served, heap = fmt.Sprintf("%.0f", r.st.ServedRSSMiB), fmt.Sprintf("%.0f", r.st.HeapMiB)
		}
		fmt.Fprintf(w, "| %s | %s | %.2f | %s | %s | %s | %s | %s | %s | %s | %.0f | %s | %s | %s |\n", r.corpus, r.st.Peer, r.st.IndexS, rate, ready, size,
			thousands(int(r.st.P50us+0.5)), thousands(int(r.st.P99us+0.5)), cpu, thousands(r.st.NTimed), r.rssMiB, served, heap, r.load)
	}
	fmt.Fprintln(w, "\nbuild s: the index (talksearch restart: reopening it); ready s: talks in memory to the engine serving;"+
		" CPU µs/search: talksearch's process CPU time per timed search, all threads (the peers run one);"+
		" peak RSS: the process tree (PostgreSQL's server not included); served RSS and heap: talksearch's resident memory after the timed searches"+
		" and its live Go heap then; load: 1-minute load average as the row ended.")
}

// thousands formats n with thousands separators: 11155 → "11,155".
func thousands(n int) string { return englishPrinter.Sprintf("%d", n) }

var englishPrinter = message.NewPrinter(language.English)
