package main

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/talksearch/talksearch/search"
)

// TestExitCodes: a mistyped command line exits 2, a failure of the work 1,
// success 0, so a script can tell a typo from a failure; search --limit 0
// is a mistyped command line, as the API refuses limit=0.
func TestExitCodes(t *testing.T) {
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want int
	}{
		{"ok", []string{"search", "--limit", "1", "monarch"}, nil, exitOK},
		{"no command", nil, nil, exitUsage},
		{"unknown command", []string{"serch", "monarch"}, nil, exitUsage},
		{"unknown flag", []string{"search", "--limt", "3", "x"}, nil, exitUsage},
		{"flag value not a number", []string{"search", "--limit", "three", "x"}, nil, exitUsage},
		{"limit 0", []string{"search", "--limit", "0", "x"}, nil, exitUsage},
		{"limit 101", []string{"search", "--limit", "101", "x"}, nil, exitUsage},
		{"bad sort", []string{"search", "--sort", "random", "x"}, nil, exitUsage},
		{"missing argument", []string{"related"}, nil, exitUsage},
		{"extra argument", []string{"serve", "extra"}, nil, exitUsage},
		{"bad value from the environment", []string{"search", "x"}, map[string]string{"TALKSEARCH_LIMIT": "many"}, exitUsage},
		{"bad log level", []string{"serve", "--log-level", "loud"}, nil, exitUsage},
		{"unknown talk", []string{"related", "no-such-talk"}, nil, exitFailure},
		{"missing seeds directory", []string{"index", "--seeds", t.TempDir() + "/none"}, nil, exitFailure},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			err := run(context.Background(), tt.args, func(k string) string { return tt.env[k] }, &out, &errOut)
			if got := exitCode(err); got != tt.want {
				t.Errorf("talksearch %q: exit %d (%v), want %d", tt.args, got, err, tt.want)
			}
		})
	}
}

func TestSearchLimitZeroRefused(t *testing.T) {
	_, _, err := runCmd(t, nil, "search", "--limit", "0", "monarch")
	if !errors.Is(err, search.ErrInvalid) || err.Error() != "--limit 0: want a whole number from 1 to 100: invalid request" {
		t.Errorf("search --limit 0: %v, want the limit refused", err)
	}
}
