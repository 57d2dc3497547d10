package main

import (
	"io"
	"os"
	"time"

	"github.com/rs/zerolog"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/talksearch/talksearch/index"
)

// buildProgress is the index.Progress of one build: a progress bar on
// stderr when it is a terminal, else an info line per tenth of the talks
// (stderr is then a JSON log, where a bar's carriage returns would break
// every line). The last call logs the build's rate in talks per second.
func buildProgress(stderr io.Writer, log zerolog.Logger) index.Progress {
	began := time.Now()
	var bar *progressbar.ProgressBar
	if f, ok := stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		bar = progressbar.NewOptions(-1, progressbar.OptionSetWriter(stderr), progressbar.OptionSetDescription("indexing talks"),
			progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetItsString("talks"),
			progressbar.OptionClearOnFinish())
	}
	nextTenth := 1
	return func(done, total int) {
		if bar != nil {
			bar.ChangeMax(total)
			_ = bar.Set(done)
		} else if total > 0 && done*10 >= nextTenth*total && done < total {
			log.Info().Int("done", done).Int("total", total).Msg("indexing")
			nextTenth = done*10/total + 1
		}
		if done == total {
			if bar != nil {
				_ = bar.Finish()
			}
			took := time.Since(began)
			log.Info().Int("talks", total).Dur("took", took).
				Float64("talks_per_s", float64(total)/max(took.Seconds(), 1e-9)).Msg("index built")
		}
	}
}
